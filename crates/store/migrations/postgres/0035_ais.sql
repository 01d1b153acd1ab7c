-- What AIS feeds tell of vessels (`[ais] sources`). One row per transponder (MMSI): who it
-- is from its static data (the IMO number links it to the vessels carriers name), and its
-- latest position; and its track, thinned by the reader (one point per interval) and
-- pruned after the retention. Coordinates are whole micro-degrees, speed and course
-- tenths, times Unix seconds: an AIS position's own resolution, in a few bytes a column.
CREATE TABLE ais_vessels (
    mmsi            bigint PRIMARY KEY,
    imo             text,
    name            text,
    latitude_e6     bigint,
    longitude_e6    bigint,
    speed_dk        bigint,
    course_dd       bigint,
    heading         bigint,
    position_at     bigint,
    static_at       bigint
);

CREATE INDEX ais_vessels_imo ON ais_vessels (imo) WHERE imo IS NOT NULL;

CREATE TABLE ais_positions (
    mmsi            bigint NOT NULL,
    at              bigint NOT NULL,
    latitude_e6     bigint NOT NULL,
    longitude_e6    bigint NOT NULL,
    speed_dk        bigint,
    course_dd       bigint,
    heading         bigint,
    PRIMARY KEY (mmsi, at)
);

CREATE INDEX ais_positions_at ON ais_positions (at);
