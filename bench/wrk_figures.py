"""What the benchmarks read from wrk's output (`wrk --latency`, with a script that prints
`created_201 N` for the creates)."""
import pathlib
import re


def ms(text):
    """A wrk duration (`850.00us`, `4.18ms`, `1.02s`) in milliseconds."""
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def parse(path):
    """Requests a second, p50 and p99 in ms, requests that failed (non-2xx or 3xx, or
    timed out), and the 201s counted (None when the script does not count them)."""
    text = pathlib.Path(path).read_text()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    p50 = ms(re.search(r"^\s+50%\s+(\S+)", text, re.M).group(1))
    p99 = ms(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    timeouts = re.search(r"timeout (\d+)", text)
    created = re.search(r"created_201 (\d+)", text)
    failed = sum(int(found.group(1)) for found in (errors, timeouts) if found)
    return rps, p50, p99, failed, int(created.group(1)) if created else None
