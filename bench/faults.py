"""The fault suite's client (bench/faults.sh): each case drives a running Tidemark and
prints its figures. Standard library only.

  faults.py restart ADDRESS KEY RESTART_COMMAND   64 clients create while PostgreSQL restarts
  faults.py stopped ADDRESS KEY                   timings while PostgreSQL is stopped
  faults.py full ADDRESS KEY LOG FILLER            SQLite on a full disk, then space freed
  faults.py bodies ADDRESS KEY                     a stalled oversized body, a trickled one
"""
import http.client, json, os, socket, subprocess, sys, threading, time

case, address, key = sys.argv[1], sys.argv[2], sys.argv[3]
host, port = address.split(":")
HEADERS = {"Authorization": f"Token {key}", "Content-Type": "application/vnd.api+json"}


def call(method, path, body=None, timeout=30):
    connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
    started = time.monotonic()
    connection.request(method, path, json.dumps(body) if body is not None else None, HEADERS)
    response = connection.getresponse()
    text = response.read()
    elapsed = time.monotonic() - started
    connection.close()
    return response.status, (json.loads(text) if text else None), elapsed


def tracking_request(number):
    return {"data": {"type": "tracking_request", "attributes": {
        "request_type": "bill_of_lading", "request_number": number, "scac": "TEST"}}}


def restart(command):
    """64 clients create for 20 s; PostgreSQL restarts at 5 s. Every 201 must be kept."""
    acknowledged, statuses, lock, stop = [], {}, threading.Lock(), time.monotonic() + 20

    def client(worker):
        n = 0
        while time.monotonic() < stop:
            n += 1
            number = f"TEST-RESTART-{worker:02d}-{n:06d}"
            try:
                status, body, _ = call("POST", "/v2/tracking_requests", tracking_request(number))
            except OSError:
                status, body = "connection error", None
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                if status == 201:
                    acknowledged.append(body["data"]["id"])

    threads = [threading.Thread(target=client, args=(w,)) for w in range(64)]
    for t in threads:
        t.start()
    time.sleep(5)
    began = time.monotonic()
    subprocess.run(command, shell=True, check=True)
    print(f"PostgreSQL restarted in {time.monotonic() - began:.1f} s, under 64 creating clients")
    for t in threads:
        t.join()
    missing = [i for i in acknowledged if call("GET", f"/v2/tracking_requests/{i}")[0] != 200]
    print("answers:", ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str)))
    print(f"acknowledged {len(acknowledged)}, lost {len(missing)}")
    return statuses.get(500, 0) == 0 and not missing


def stopped():
    """While PostgreSQL is stopped: a list and /readyz, each timed."""
    ok = True
    for path, bound in (("/v2/tracking_requests", 2.0), ("/readyz", 1.0)):
        status, body, elapsed = call("GET", path)
        code = body["errors"][0].get("code") if body and body.get("errors") else None
        print(f"{path}: {status} {code} in {elapsed:.2f} s (at most {bound} s)")
        ok = ok and status == 503 and elapsed <= bound
    return ok


def full(log, filler):
    """Creates until the disk is full, 30 s of refusals, then space freed."""
    n, status = 0, 201
    while status == 201 and n < 10_000_000:
        n += 1
        status, body, _ = call("POST", "/v2/tracking_requests", tracking_request(f"TEST-FULL-{n:08d}"))
    code = body["errors"][0]["code"] if body and body.get("errors") else None
    print(f"after {n - 1} creates: {status} {code}")
    ok = status == 507
    log_before, refused, stop = os.path.getsize(log), 0, time.monotonic() + 30
    while time.monotonic() < stop:
        n += 1
        status, _, _ = call("POST", "/v2/tracking_requests", tracking_request(f"TEST-FULL-{n:08d}"))
        refused += status == 507
    growth = os.path.getsize(log) - log_before
    read = call("GET", "/v2/tracking_requests?page[size]=5")[0]
    ready = call("GET", "/readyz")[0]
    print(f"30 s full: {refused} writes refused with 507, the log grew {growth} bytes; "
          f"a read answered {read}, /readyz {ready}")
    ok = ok and growth < 1_000_000 and read == 200 and ready == 503
    os.remove(filler)
    deadline, status = time.monotonic() + 10, 0
    while status != 201 and time.monotonic() < deadline:
        n += 1
        status = call("POST", "/v2/tracking_requests", tracking_request(f"TEST-FULL-{n:08d}"))[0]
    print(f"space freed: a create answered {status}")
    return ok and status == 201


def raw_exchange(head, chunks, gap):
    """Sends `head`, then each chunk after `gap` seconds; the seconds until the server
    answered or closed, and the status line it wrote (if any)."""
    sock = socket.create_connection((host, int(port)))
    sock.settimeout(0.2)
    started, answer = time.monotonic(), b""
    sock.sendall(head)
    pending = list(chunks)
    next_at = started + gap
    while time.monotonic() - started < 400:
        if pending and time.monotonic() >= next_at:
            try:
                sock.sendall(pending.pop(0))
            except OSError:
                break
            next_at += gap
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            break
        if not data:
            break
        answer += data
    sock.close()
    line = answer.split(b"\r\n", 1)[0].decode("latin-1") or "(closed without an answer)"
    return time.monotonic() - started, line


def bodies():
    """A declared 100,000-byte body that stalls after 10 bytes, and a body trickled at one
    byte every 5 s by a client with a valid key."""
    stalled_head = (f"POST /v2/tracking_requests HTTP/1.1\r\nHost: {address}\r\n"
                    f"Authorization: Token {key}\r\nContent-Type: application/vnd.api+json\r\n"
                    "Content-Length: 100000\r\n\r\n0123456789").encode()
    took, line = raw_exchange(stalled_head, [], 3600)
    print(f"stalled oversized body: {line} after {took:.1f} s (at most 35 s)")
    ok = took <= 35
    body = json.dumps(tracking_request("TEST-TRICKLE")).encode()
    trickle_head = (f"POST /v2/tracking_requests HTTP/1.1\r\nHost: {address}\r\n"
                    f"Authorization: Token {key}\r\nContent-Type: application/vnd.api+json\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n").encode()
    took, line = raw_exchange(trickle_head, [bytes([b]) for b in body], 5)
    print(f"body trickled at 1 byte / 5 s: {line} after {took:.1f} s")
    return ok and "408" in line


result = {"restart": lambda: restart(sys.argv[4]), "stopped": stopped,
          "full": lambda: full(sys.argv[4], sys.argv[5]), "bodies": bodies}[case]()
print("as expected" if result else "NOT AS EXPECTED")
sys.exit(0 if result else 1)
