-- What AIS feeds tell of vessels (`[ais] sources`). One row per transponder (MMSI): who it
-- is from its static data (the IMO number links it to the vessels carriers name), and its
-- latest position; and its track, thinned by the reader (one point per interval) and
-- pruned after the retention. Coordinates are whole micro-degrees, speed and course
-- tenths, times Unix seconds: an AIS position's own resolution, in a few bytes a column.
CREATE TABLE ais_vessels (
    mmsi            INTEGER PRIMARY KEY NOT NULL,
    imo             TEXT,
    name            TEXT,
    latitude_e6     INTEGER,
    longitude_e6    INTEGER,
    speed_dk        INTEGER,
    course_dd       INTEGER,
    heading         INTEGER,
    position_at     INTEGER,
    static_at       INTEGER
) STRICT;

CREATE INDEX ais_vessels_imo ON ais_vessels (imo) WHERE imo IS NOT NULL;

CREATE TABLE ais_positions (
    mmsi            INTEGER NOT NULL,
    at              INTEGER NOT NULL,
    latitude_e6     INTEGER NOT NULL,
    longitude_e6    INTEGER NOT NULL,
    speed_dk        INTEGER,
    course_dd       INTEGER,
    heading         INTEGER,
    PRIMARY KEY (mmsi, at)
) STRICT, WITHOUT ROWID;

CREATE INDEX ais_positions_at ON ais_positions (at);
