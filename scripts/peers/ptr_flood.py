#!/usr/bin/env python3
"""Announce COUNT instance names of a service type by bare PTR records: no SRV, no TXT, no
address behind them, so no resolver can ever finish one. The mDNS flood of an outside attack,
sent with python-zeroconf's packet writer (not its responder: nothing answers for the names).

Run it inside a test-bed namespace (never in the machine's own namespace). It sends the
records twice, a second apart as RFC 6762 section 8.3 announces, prints "flooded COUNT", and
exits; the neighbours' avahi-daemons keep the names in their caches for the TTL. With
--goodbye it sends the same records once with TTL 0 (RFC 6762 section 10.1): the caches drop
them, and the flood stops disturbing other browses on the LAN.

    ptr_flood.py --address 10.99.0.1 --count 500 --prefix "Flood" --ttl 60
    ptr_flood.py --address 10.99.0.1 --count 500 --prefix "Flood" --goodbye
"""
import argparse
import sys
import time

from zeroconf import DNSOutgoing, DNSPointer, IPVersion, Zeroconf
from zeroconf.const import _CLASS_IN, _FLAGS_AA, _FLAGS_QR_RESPONSE, _TYPE_PTR

# Bounds: a flood test never sends more than this many names, nor more than two rounds.
MAX_COUNT = 2_000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True, help="IPv4 address inside the namespace to send from")
    parser.add_argument("--type", default="_openclaw-gw._tcp")
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--prefix", default="Flood", help="names are '<prefix> <n>'")
    parser.add_argument("--ttl", type=int, default=60)
    parser.add_argument("--goodbye", action="store_true", help="withdraw the names (TTL 0), once")
    args = parser.parse_args()
    if not 0 < args.count <= MAX_COUNT:
        parser.error(f"--count must be 1 to {MAX_COUNT}")

    service_type = f"{args.type}.local."
    zc = Zeroconf(interfaces=[args.address], ip_version=IPVersion.V4Only)
    try:
        rounds, ttl = (1, 0) if args.goodbye else (2, args.ttl)
        for round_ in range(rounds):
            out = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA)
            for index in range(args.count):
                alias = f"{args.prefix} {index}.{service_type}"
                out.add_answer_at_time(DNSPointer(service_type, _TYPE_PTR, _CLASS_IN, ttl, alias), 0)
            zc.send(out)  # split into as many packets as the records need
            if round_ + 1 < rounds:
                time.sleep(1)
    finally:
        zc.close()
    print(f"{'withdrew' if args.goodbye else 'flooded'} {args.count}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
