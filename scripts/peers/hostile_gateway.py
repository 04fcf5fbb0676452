#!/usr/bin/env python3
"""Gateways that attack the client, for clawnet's tests: floods, frames that break the rules,
answers that are not HTTP, and text meant to take over a terminal. Independent of clawnet:
plain asyncio, the WebSocket upgrade written by hand (RFC 6455). Run inside a test-bed
namespace. Prints "ready" once listening; runs until killed.

    hostile_gateway.py MODE --address 127.0.0.1 --port 18789 [--cert cert.pem --key key.pem]

Modes:
  pingflood   answers the upgrade, then sends pings as fast as it can and never reads
  bigping     answers the upgrade, then a ping with 126 bytes (control frames have at most 125)
  fragping    answers the upgrade, then a ping without FIN (control frames are never fragmented)
  noupgrade   answers the upgrade with 101 but no Upgrade header
  badhttp     answers every request with bytes that are not an HTTP status line
  reset       accepts, then resets the connection (RST) when the request arrives
  bodyflood   answers every request with 200 and a body that never ends
  headerflood answers every request with 200 and headers that never end
  silent      accepts, prints "accepted", reads the request and never answers (a blackhole)
  escapes     /healthz answers 500 and the first frame is not connect.challenge, both full of
              terminal escape sequences and line breaks; with --escape-cert, its certificate's
              subject is too (made on the fly)
"""
import argparse
import asyncio
import base64
import hashlib
import socket
import ssl
import struct
import sys
import tempfile

from selfsigned import write_self_signed

# Clear the screen, set the window title, move the cursor home, ring the bell, a C1 CSI,
# then a line that looks like clawnet's own.
HOSTILE = "\x1b[2J\x1b]0;owned\x07\x1b[H\x9b31m\r\nPASS  gw.everything  all good\x7f"


def frame(opcode, payload, fin=True):
    head = bytes([(0x80 if fin else 0) | opcode])
    if len(payload) < 126:
        head += bytes([len(payload)])
    elif len(payload) < 65536:
        head += bytes([126]) + struct.pack("!H", len(payload))
    else:
        head += bytes([127]) + struct.pack("!Q", len(payload))
    return head + payload


def accept_key(request):
    for line in request.split(b"\r\n"):
        if line.lower().startswith(b"sec-websocket-key:"):
            key = line.split(b":", 1)[1].strip()
            return base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
    return b""


def switching(request, upgrade=True):
    response = b"HTTP/1.1 101 Switching Protocols\r\n"
    if upgrade:
        response += b"Upgrade: websocket\r\n"
    return response + b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept_key(request) + b"\r\n\r\n"


def escape_certificate(directory):
    """A self-signed certificate whose subject and issuer carry HOSTILE."""
    from cryptography import x509
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, HOSTILE), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "o\x1b[8m")])
    san = x509.SubjectAlternativeName([x509.DNSName("gw\x1b[2J.example")])
    return write_self_signed(directory, "escape", key, name, -1, 30, [(san, False)])


async def handle(mode, reader, writer):
    try:
        if mode == "silent":
            print("accepted", flush=True)
            await asyncio.sleep(3600)
            return
        if mode == "reset":
            await reader.readuntil(b"\r\n\r\n")
            sock = writer.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()
            return
        request = await reader.readuntil(b"\r\n\r\n")
        websocket = b"upgrade: websocket" in request.lower()
        if mode == "badhttp":
            writer.write(b"XTTP/9.9 OK-ish\r\n\r\n")
        elif mode == "bodyflood":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n")
            chunk = b"x" * 65536
            while True:
                writer.write(chunk)
                await writer.drain()
        elif mode == "headerflood":
            writer.write(b"HTTP/1.1 200 OK\r\n")
            while True:
                writer.write(b"X-Flood: " + b"y" * 1000 + b"\r\n")
                await writer.drain()
        elif mode == "noupgrade" and websocket:
            writer.write(switching(request, upgrade=False))
        elif mode == "escapes":
            if websocket:
                writer.write(switching(request) + frame(0x1, HOSTILE.encode()))
            else:
                body = HOSTILE.encode()
                writer.write(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        elif mode in ("pingflood", "bigping", "fragping") and websocket:
            writer.write(switching(request))
            if mode == "bigping":
                writer.write(frame(0x9, b"p" * 126))
            elif mode == "fragping":
                writer.write(frame(0x9, b"ping", fin=False))
            else:
                ping = frame(0x9, b"p" * 125)
                while True:
                    writer.write(ping * 8192)
                    await writer.drain()
        else:
            writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        await asyncio.sleep(3600)
    except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError):
        pass
    finally:
        writer.close()


async def serve(args):
    context = None
    cert, key = args.cert, args.key
    if args.escape_cert:
        cert, key = escape_certificate(tempfile.mkdtemp(prefix="hostile-gateway-"))
    if cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
    server = await asyncio.start_server(lambda r, w: handle(args.mode, r, w), args.address, args.port, ssl=context)
    async with server:
        print("ready", flush=True)
        await server.serve_forever()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["pingflood", "bigping", "fragping", "noupgrade", "badhttp", "reset", "bodyflood",
                                         "headerflood", "escapes", "silent"])
    parser.add_argument("--address", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--escape-cert", action="store_true")
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
