#!/usr/bin/env python3
"""Builds Tidemark's bundled map data (data/maps/) from public data sets.

    python3 -m venv /tmp/maps && /tmp/maps/bin/pip install searoute==1.6.0
    npm pack world-atlas@2.0.2 --pack-destination /tmp && tar -xzf /tmp/world-atlas-2.0.2.tgz -C /tmp
    /tmp/maps/bin/python data/import_maps.py /tmp/package data/maps

writes `sea_routes.txt`, the maritime network vessels are routed over, and `land.txt`, the
land the console's map draws. Sources and licences: data/maps/README.md. Nothing here is
typed in; the rules are the functions below.
"""
import importlib.metadata
import json
import pathlib
import sys

import searoute

atlas = pathlib.Path(sys.argv[1])
out = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "data/maps")

# Passages no container service sails, left out as the searoute package leaves them out
# by default.
CLOSED_PASSAGES = {"northwest"}


def lon(value):
    """Longitudes from 180 east (the network's Pacific lanes meet at 180 and -180, and
    some continue past it) wrapped, so the lanes of both sides meet at one point."""
    return value - 360 if value >= 180 else value


def sea_routes():
    data = json.loads((pathlib.Path(searoute.__file__).parent / "data" / "marnet_searoute.geojson").read_text())
    lines = []
    for feature in data["features"]:
        if feature["properties"].get("passage") in CLOSED_PASSAGES:
            continue
        geometry = feature["geometry"]
        parts = [geometry["coordinates"]] if geometry["type"] == "LineString" else geometry["coordinates"]
        for part in parts:
            points = [(round(lon(x), 5), round(y, 5)) for x, y in part]
            points = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
            if len(points) >= 2:
                lines.append(";".join(f"{x:g} {y:g}" for x, y in points))
    header = (
        "# The maritime network of the PyPI package searoute "
        f"{importlib.metadata.version('searoute')} (marnet_searoute.geojson), "
        "one polyline a line as longitude latitude pairs; see README.md.\n"
    )
    (out / "sea_routes.txt").write_text(header + "\n".join(lines) + "\n")
    return len(lines), sum(line.count(";") + 1 for line in lines)


def decode_topology(topology, name):
    """The rings of a TopoJSON object's polygons, in degrees."""
    scale, translate = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x, y = x + dx, y + dy
            points.append((x * scale[0] + translate[0], y * scale[1] + translate[1]))
        arcs.append(points)

    def ring(indexes):
        points = []
        for index in indexes:
            arc = arcs[index] if index >= 0 else list(reversed(arcs[~index]))
            points.extend(arc if not points else arc[1:])
        return points

    rings = []
    for geometry in topology["objects"][name]["geometries"]:
        polygons = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
        for polygon in polygons:
            rings.extend(ring(indexes) for indexes in polygon)
    return rings


def land():
    topology = json.loads((atlas / "land-110m.json").read_text())
    rings = decode_topology(topology, "land")
    lines = []
    for points in rings:
        points = [(round(x, 2), round(y, 2)) for x, y in points]
        points = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
        if len(points) >= 4:
            lines.append(";".join(f"{x:g} {y:g}" for x, y in points))
    version = json.loads((atlas / "package.json").read_text())["version"]
    header = (
        f"# Natural Earth's 1:110m land, from the npm package world-atlas {version} "
        "(land-110m.json), one ring a line as longitude latitude pairs; see README.md.\n"
    )
    (out / "land.txt").write_text(header + "\n".join(lines) + "\n")
    return len(lines), sum(line.count(";") + 1 for line in lines)


if __name__ == "__main__":
    out.mkdir(parents=True, exist_ok=True)
    print("sea routes: %d polylines, %d points" % sea_routes())
    print("land: %d rings, %d points" % land())
