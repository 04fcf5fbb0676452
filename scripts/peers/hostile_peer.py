#!/usr/bin/env python3
"""Servers that misbehave on purpose, for clawnet's tests. Run inside a test-bed namespace.

    hostile_peer.py MODE --address 127.0.0.1 --port 5400

Modes:
  udp-silent    reads DNS queries and never answers
  udp-garbage   answers every datagram with random bytes (with the query's id)
Prints "ready" once listening; runs until killed.
"""
import argparse
import os
import socket
import sys


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["udp-silent", "udp-garbage"])
    parser.add_argument("--address", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()

    family = socket.AF_INET6 if ":" in args.address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_DGRAM)
    sock.bind((args.address, args.port))
    print("ready", flush=True)
    while True:
        data, peer = sock.recvfrom(65535)
        if args.mode == "udp-garbage" and len(data) >= 2:
            sock.sendto(data[:2] + os.urandom(40), peer)


if __name__ == "__main__":
    sys.exit(main())
