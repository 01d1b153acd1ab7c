#!/usr/bin/env python3
"""One-time import of the carrier data matrix from the reference CSVs.

    python3 data/import_carriers.py ../shared/reference > data/carriers.toml

It was used to create data/carriers.toml; since then the TOML is the reviewed source and is
edited by hand (number shapes are added there). Kept to show where every fact came from.
"""
import csv, re, sys, pathlib

ref = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/reference")
carriers = [r for r in csv.DictReader(open(ref / "carriers.csv")) if r["scac"].strip()]
lessors = list(csv.DictReader(open(ref / "leasing-prefixes.csv")))
lessor_prefixes = {r["prefix"] for r in lessors}

# Alternative SCACs that Terminal49 accepts in tracking requests (carriers.md, "alt_scacs_aliases").
ALTERNATIVES = {"MSCU": ["MEDU"], "SEAU": ["SEAL"], "YMLU": ["YMPR", "YMSG", "YMJA"], "CLAM": ["CWLQ"],
                "CHVW": ["QWJA", "PLLU"], "SSBF": ["WWSU"], "SQQY": ["SJHH"], "TRBR": ["TBIE", "PYRR"]}
# Groups whose CSV spellings differ (carriers.md, "Group ambiguity").
GROUP_ALIASES = {"Maersk (A.P. Moller-Maersk)": "Maersk", "ZIM affiliate": "ZIM", "Grimaldi Group": "Grimaldi",
                 "PIL-related": "PIL", "MSC-affiliated": "MSC"}

def q(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

def words(text):
    return [w for w in text.split() if re.fullmatch(r"[A-Z]{3}[UJZ]", w)]

def flag(value):
    return {"yes": "true", "no": "false"}.get(value.strip().lower())

print("# The carrier data matrix: every SCAC Tidemark knows, what each carrier tracks, and the")
print("# evidence the number inference uses. Imported from reference/carriers.csv and")
print("# reference/leasing-prefixes.csv (see data/import_carriers.py); edited by hand since.")
print("# `sources` names the public material behind each row (tokens explained in carriers.md).")
print()
print("[[carrier]]")
print('scac = "TEST"')
print('name = "Tidemark Test Carrier"')
print('short_name = "Test"')
print('group = "Tidemark sandbox"')
print("alternative_scacs = []")
print("container_prefixes = []")
print("bill_of_lading = true\nbooking_number = true\ncontainer = false")
print('capabilities_source = "api.md section 6: the sandbox carrier (BL and booking, as the reference TEST line)"')
print('sources = ["spec/api.md section 6", "reference/compat-api.md section 6"]')
print()
for r in carriers:
    scac = r["scac"].strip()
    group = GROUP_ALIASES.get(r["group"].strip(), r["group"].strip()) or scac
    prefixes = [p for p in words(r["bic_container_prefixes"]) if p not in lessor_prefixes]
    listed = r["t49_listed"].startswith("yes")
    bl, booking, container = (flag(r["t49_bl"]), flag(r["t49_booking"]), flag(r["t49_container"])) if listed else (None, None, None)
    print("[[carrier]]")
    print(f"scac = {q(scac)}")
    print(f"name = {q(r['name'].strip())}")
    short = re.sub(r"\s*\(.*\)", "", r["name"]).strip()
    m = re.search(r"\(([^)]+)\)", r["name"])
    if m and len(m.group(1)) <= 12 and " " not in m.group(1).strip():
        short = m.group(1).strip()
    print(f"short_name = {q(short)}")
    print(f"group = {q(group)}")
    print(f"alternative_scacs = [{', '.join(q(a) for a in ALTERNATIVES.get(scac, []))}]")
    print(f"container_prefixes = [{', '.join(q(p) for p in prefixes)}]")
    if listed:
        print(f"bill_of_lading = {bl or 'false'}")
        print(f"booking_number = {booking or 'false'}")
        print(f"container = {container or 'false'}")
        print('capabilities_source = "Terminal49 coverage table (2026-08-14)"')
    else:
        print("bill_of_lading = true")
        print("booking_number = true")
        print("container = false")
        print('capabilities_source = "assumed: not in Terminal49 coverage; a carrier tracks its own bills and bookings"')
    for key in ("bl_prefixes", "bl_pattern_observed", "booking_pattern_observed", "notes"):
        if r[key].strip():
            print(f"{key.replace('_observed', '_observed_text')} = {q(r[key].strip())}")
    print(f"sources = [{', '.join(q(s.strip()) for s in r['sources'].split('|') if s.strip())}]")
    print()

print("# Container prefixes registered to lessors, traders and tank operators: they say nothing")
print("# reliable about the line moving the box. `affiliation` names a carrier whose dedicated")
print("# lessor this is (still not proof of the carrier).")
for r in lessors:
    print("[[lessor]]")
    print(f"prefix = {q(r['prefix'])}")
    print(f"owner = {q(r['lessor_group'] or r['bic_registrant_2023'])}")
    print(f"category = {q(r['category'])}")
    if r["carrier_affiliation"].strip():
        print(f"affiliation = {q(r['carrier_affiliation'].strip())}")
    print(f"sources = [{', '.join(q(s.strip()) for s in r['sources'].split('|') if s.strip())}]")
    print()
