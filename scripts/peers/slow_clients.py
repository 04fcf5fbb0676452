#!/usr/bin/env python3
"""Slow HTTP clients, for clawnet's tests of watch's /metrics. Run inside a test-bed namespace.

    slow_clients.py --address 127.0.0.1 --port 9464 --connections 400 --seconds 8

Opens up to --connections TCP connections (bounded), then on each one still open sends one
byte of a request head ("GET /metrics HTTP/1.1\\r\\n..." never finished) every second, for
--seconds (bounded), and closes them all. A connection the server closes is counted, never
opened again. Prints "holding N" once the connections are open, then "closed by the server N"
at the end.
"""
import argparse
import socket
import sys
import time

MAX_CONNECTIONS = 2000
MAX_SECONDS = 60


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--connections", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=8)
    args = parser.parse_args()
    count = min(args.connections, MAX_CONNECTIONS)
    seconds = min(args.seconds, MAX_SECONDS)
    head = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 4096
    sockets = []
    for _ in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.settimeout(2)
        try:
            sock.connect((args.address, args.port))
        except OSError:
            sock.close()
            continue
        sock.setblocking(False)
        sockets.append(sock)
    print(f"holding {len(sockets)}", flush=True)
    closed = set()
    deadline = time.monotonic() + seconds
    position = 0
    while time.monotonic() < deadline and len(closed) < len(sockets):
        for index, sock in enumerate(sockets):
            if index in closed:
                continue
            try:
                sock.send(head[position % len(head):position % len(head) + 1])
                if sock.recv(1, socket.MSG_PEEK) == b"":
                    closed.add(index)
            except BlockingIOError:
                pass
            except OSError:
                closed.add(index)
        position += 1
        time.sleep(1)
    for sock in sockets:
        sock.close()
    print(f"closed by the server {len(closed)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
