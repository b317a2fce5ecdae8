#!/usr/bin/env python3
"""Protocol-level readiness probes for deploy/local (standard library only).

usage: probe.py tcp HOST PORT
       probe.py kafka HOST PORT     Kafka Metadata v1: at least one broker and an active controller
       probe.py kafka-group HOST PORT
                                    Kafka FindCoordinator answered without error (the first call makes
                                    the broker create __consumer_offsets, so consumer groups work)
       probe.py mongo HOST PORT     OP_MSG {ping: 1} answered with ok: 1
       probe.py smtp HOST PORT      SMTP 220 greeting and a 250 answer to NOOP
       probe.py http URL            HTTP 200

Exit 0 when the server answers as expected, 1 otherwise (the reason goes to stderr).
"""

import json
import smtplib
import socket
import struct
import sys
import urllib.request

TIMEOUT = 3.0


def recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("connection closed")
        buf += chunk
    return buf


def probe_tcp(host: str, port: int) -> None:
    socket.create_connection((host, port), timeout=TIMEOUT).close()


def probe_kafka(host: str, port: int) -> None:
    resp = kafka_request(host, port, 3, 1, struct.pack(">i", 0))  # Metadata v1, no topics
    off = 0
    (n_brokers,) = struct.unpack_from(">i", resp, off)
    off += 4
    for _ in range(n_brokers):
        off += 4  # node_id
        (hlen,) = struct.unpack_from(">h", resp, off)
        off += 2 + hlen + 4  # host, port
        (rlen,) = struct.unpack_from(">h", resp, off)
        off += 2 + max(rlen, 0)  # rack (nullable)
    (controller_id,) = struct.unpack_from(">i", resp, off)
    if n_brokers < 1:
        raise ValueError("no broker registered yet")
    if controller_id < 0:
        raise ValueError("no active controller yet")


def kafka_request(host: str, port: int, api_key: int, api_version: int, body: bytes) -> bytes:
    client_id = b"platform-probe"
    correlation_id = 11
    header = struct.pack(">hhih", api_key, api_version, correlation_id, len(client_id)) + client_id
    payload = header + body
    with socket.create_connection((host, port), timeout=TIMEOUT) as sock:
        sock.sendall(struct.pack(">i", len(payload)) + payload)
        (size,) = struct.unpack(">i", recv_exact(sock, 4))
        resp = recv_exact(sock, size)
    (corr,) = struct.unpack_from(">i", resp, 0)
    if corr != correlation_id:
        raise ValueError(f"unexpected correlation id {corr}")
    return resp[4:]


def probe_kafka_group(host: str, port: int) -> None:
    key = b"platform-probe"
    resp = kafka_request(host, port, 10, 0, struct.pack(">h", len(key)) + key)  # FindCoordinator v0
    (error_code,) = struct.unpack_from(">h", resp, 0)
    if error_code != 0:
        raise ValueError(f"FindCoordinator error code {error_code} (15 = coordinator not available yet)")


def bson_doc(items: list) -> bytes:
    out = b""
    for key, value in items:
        k = key.encode() + b"\x00"
        if isinstance(value, int):
            out += b"\x10" + k + struct.pack("<i", value)
        elif isinstance(value, str):
            v = value.encode() + b"\x00"
            out += b"\x02" + k + struct.pack("<i", len(v)) + v
        else:
            raise TypeError(type(value))
    return struct.pack("<i", len(out) + 5) + out + b"\x00"


def probe_mongo(host: str, port: int) -> None:
    doc = bson_doc([("ping", 1), ("$db", "admin")])
    body = struct.pack("<I", 0) + b"\x00" + doc  # flagBits, section kind 0
    request_id = 42
    msg = struct.pack("<iiii", 16 + len(body), request_id, 0, 2013) + body
    with socket.create_connection((host, port), timeout=TIMEOUT) as sock:
        sock.sendall(msg)
        (length,) = struct.unpack("<i", recv_exact(sock, 4))
        rest = recv_exact(sock, length - 4)
    _, response_to, op_code = struct.unpack_from("<iii", rest, 0)
    if op_code != 2013 or response_to != request_id:
        raise ValueError(f"unexpected reply opCode={op_code} responseTo={response_to}")
    reply = rest[12 + 4 + 1 :]  # header rest, flagBits, section kind
    marker = b"\x01ok\x00"
    i = reply.find(marker)
    if i < 0:
        raise ValueError("reply has no ok field")
    (ok,) = struct.unpack_from("<d", reply, i + len(marker))
    if ok != 1.0:
        raise ValueError(f"ping answered ok={ok}")


def probe_smtp(host: str, port: int) -> None:
    with smtplib.SMTP(host, port, timeout=TIMEOUT) as smtp:
        code, _ = smtp.noop()
        if code != 250:
            raise ValueError(f"NOOP answered {code}")


def probe_http(url: str) -> None:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never via a proxy
    with opener.open(url, timeout=TIMEOUT) as resp:
        if resp.status != 200:
            raise ValueError(f"HTTP {resp.status}")
        if "json" in (resp.headers.get("Content-Type") or ""):
            json.load(resp)


PROBES = {
    "tcp": probe_tcp,
    "kafka": probe_kafka,
    "kafka-group": probe_kafka_group,
    "mongo": probe_mongo,
    "smtp": probe_smtp,
}


def main(argv: list) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    kind = argv[1]
    try:
        if kind == "http" and len(argv) == 3:
            probe_http(argv[2])
        elif kind in PROBES and len(argv) == 4:
            fn = PROBES[kind]
            fn(argv[2], int(argv[3]))
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except Exception as exc:  # any failure means "not ready"
        print(f"{kind} probe failed: {exc!r}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
