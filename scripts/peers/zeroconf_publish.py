#!/usr/bin/env python3
"""Publish one DNS-SD service with python-zeroconf, an mDNS stack independent of Avahi.

Run it inside a test-bed namespace (never in the machine's own namespace). It prints
"registered" once the service is announced, and withdraws it (goodbye packets) when stdin
closes or on SIGTERM, then prints "unregistered". With --silent it never announces the
service, only answers queries for it: a Gateway that announced itself before a node's
avahi-daemon started, which that daemon's cache cannot know.

    zeroconf_publish.py --address 10.99.0.1 --name "Studio (OpenClaw)" --port 18789 \
        --host zc-gw --txt role=gateway --txt gatewayPort=18789
"""
import argparse
import asyncio
import signal
import socket
import sys
import threading

from zeroconf import IPVersion, ServiceInfo, Zeroconf


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True, help="IPv4 address inside the namespace to bind and publish")
    parser.add_argument("--name", required=True, help="instance name, decoded")
    parser.add_argument("--type", default="_openclaw-gw._tcp")
    parser.add_argument("--port", type=int, default=18789)
    parser.add_argument("--host", default="zc-gw", help="host label for the SRV target")
    parser.add_argument("--txt", action="append", default=[], help="KEY=VALUE, or KEY alone")
    parser.add_argument("--extra-address", action="append", default=[],
                        help="another IPv4 address to publish for the host (not bound): a Docker bridge, a second NIC")
    parser.add_argument("--silent", action="store_true", help="answer queries, never announce")
    args = parser.parse_args()

    properties = {}
    for entry in args.txt:
        key, sep, value = entry.partition("=")
        properties[key] = value if sep else None

    service_type = f"{args.type}.local."
    info = ServiceInfo(
        service_type,
        f"{args.name}.{service_type}",
        addresses=[socket.inet_aton(address) for address in [args.address, *args.extra_address]],
        port=args.port,
        properties=properties,
        server=f"{args.host}.local.",
    )
    zc = Zeroconf(interfaces=[args.address], ip_version=IPVersion.V4Only)
    if args.silent:
        async def add():
            zc.registry.async_add(info)
        asyncio.run_coroutine_threadsafe(add(), zc.loop).result(timeout=5)
    else:
        zc.register_service(info, allow_name_change=False)
    print("registered", flush=True)

    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    done.wait()

    zc.unregister_service(info)
    zc.close()
    print("unregistered", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
