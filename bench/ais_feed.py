"""The AIS feed `bench/ais.sh` reads: sentences made by pyais (an independent encoder),
served over TCP as an AIS receiver serves them.

    python3 bench/ais_feed.py make DIR VESSELS ROUNDS   # DIR/warm.nmea, bulk1.nmea, bulk2.nmea
    python3 bench/ais_feed.py serve DIR PORT_FILE [RATE] # serves them, phase by phase

`warm` holds every vessel's static data (message 5, two sentences) and one position;
`bulk1` and `bulk2` each ROUNDS positions per vessel (message 1), ten minutes apart by
their tag blocks, so every round is a new track point. The server sends a phase's file
to its one client once DIR/go-<phase> exists (as fast as the socket takes it, `bulk2` at
RATE lines a second when given), then waits for the next.
"""
import math
import os
import pathlib
import socket
import sys
import time

from pyais.encode import encode_dict

T0 = 1_800_000_000


def imo(base):
    digits = [int(d) for d in f"{base:06d}"]
    return base * 10 + sum(d * w for d, w in zip(digits, range(7, 1, -1))) % 10


def tagged(line, at):
    body = f"c:{at}"
    check = 0
    for char in body:
        check ^= ord(char)
    return f"\\{body}*{check:02X}\\{line}\n"


def position(vessel, step):
    # Each vessel sails east along its own parallel in the North Atlantic.
    lat = 30.0 + (vessel % 200) * 0.1
    lon = -60.0 + (vessel // 200) * 0.5 + step * 0.03
    return encode_dict({"msg_type": 1, "mmsi": 366_000_000 + vessel, "lat": lat, "lon": lon,
                        "speed": 14.5, "course": 90.0, "heading": 90},
                       talker_id="AI", sentence_type="VDM", radio_channel="A")[0]


def make(folder, vessels, rounds):
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "warm.nmea", "w") as out:
        for vessel in range(vessels):
            for line in encode_dict({"msg_type": 5, "mmsi": 366_000_000 + vessel,
                                     "imo": imo(900_000 + vessel),
                                     "shipname": f"BENCH VESSEL {vessel}", "ship_type": 71},
                                    talker_id="AI", sentence_type="VDM", radio_channel="B",
                                    seq_id=vessel % 10):
                out.write(tagged(line, T0))
            out.write(tagged(position(vessel, 0), T0))
    for phase, first in (("bulk1", 1), ("bulk2", 1 + rounds)):
        with open(folder / f"{phase}.nmea", "w") as out:
            for step in range(first, first + rounds):
                for vessel in range(vessels):
                    out.write(tagged(position(vessel, step), T0 + 600 * step))


def paced(client, data, rate):
    """Sends `data` at `rate` lines a second, a hundredth of a second's lines at a time."""
    lines = data.splitlines(keepends=True)
    chunk = max(1, rate // 100)
    started = time.monotonic()
    for i in range(0, len(lines), chunk):
        client.sendall(b"".join(lines[i:i + chunk]))
        due = started + (i + chunk) / rate
        time.sleep(max(0.0, due - time.monotonic()))


def serve(folder, port_file, rate):
    listener = socket.create_server(("127.0.0.1", 0))
    pathlib.Path(port_file).write_text(str(listener.getsockname()[1]))
    client, _ = listener.accept()
    for phase in ("warm", "bulk1", "bulk2"):
        while not (folder / f"go-{phase}").exists():
            time.sleep(0.01)
        data = (folder / f"{phase}.nmea").read_bytes()
        if phase == "bulk2" and rate > 0:
            paced(client, data, rate)
        else:
            client.sendall(data)
        (folder / f"sent-{phase}").write_text(str(time.time()))
    while not (folder / "go-stop").exists():
        time.sleep(0.1)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(pathlib.Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
    else:
        serve(pathlib.Path(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 0)
