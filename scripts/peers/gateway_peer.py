#!/usr/bin/env python3
"""A Gateway stand-in for clawnet's tests, independent of clawnet: python-websockets over
TLS (or plain), OpenClaw's health endpoints and its WebSocket opening, or a misbehaving
server. Run it inside a test-bed namespace. Prints "ready" once listening; runs until killed.

    gateway_peer.py MODE --address 127.0.0.1 --port 18789 [--cert cert.pem --key key.pem] [--record FILE]
                    [--print-handshakes]

--cert may hold a chain (leaf first, then intermediates). --record FILE appends every connect
request the peer receives to FILE, one JSON object a line: what a test asserts a client sent.
--print-handshakes prints "tls handshake SNI" for each TLS ClientHello (SNI is None without
one): how many handshakes a client made.

Modes:
  gateway    /healthz and /readyz answer 200; a WebSocket gets connect.challenge first
  notready   like gateway, but /readyz answers 503 (starting or draining)
  wrongframe the first frame is not connect.challenge
  silent     accepts connections and never sends a byte
  garbage    sends random bytes instead of TLS or HTTP
  http200    answers every request, the WebSocket upgrade included, with HTTP 200
  dribble    answers the upgrade, then sends its first frame one byte per second
  bigframe   sends a 10 MB first frame
  tls12      like gateway, but speaks only TLS 1.2
  tls11      speaks only TLS 1.1 (it answers a TLS 1.2+ hello with a TLS 1.1 ServerHello)
  tlsalert   TLS 1.2 with only a cipher no modern client offers: a handshake_failure alert
  expired    like gateway, with a certificate that expired (made on the fly)
  nginx      another program on the port: HTTP 404 everywhere, "Server: nginx/1.24.0"
The answer to connect (after connect.challenge), as OpenClaw's server sends it:
  hellook        res ok, payload hello-ok (protocol 4); the connection stays open
  pairing        NOT_PAIRED, details PAIRING_REQUIRED with a requestId; close 1008
  tokenmismatch  INVALID_REQUEST, details AUTH_TOKEN_MISMATCH; close 1008
  tokenmissing   INVALID_REQUEST, details AUTH_TOKEN_MISSING; close 1008
  protocol       INVALID_REQUEST "protocol mismatch", details PROTOCOL_MISMATCH (expects 5); close 1002
  starting       UNAVAILABLE "gateway starting; retry shortly", retryable; close 1013
  close1008      no answer: close 1008 "invalid request frame"
(gateway answers connect with NOT_PAIRED "device identity required", as a Gateway does to a
tokenless probe.)
"""
import argparse
import asyncio
import json
import os
import secrets
import ssl
import sys
import tempfile
import time
from http import HTTPStatus

import websockets
from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.http11 import Response

from selfsigned import write_self_signed


def challenge():
    return json.dumps({"type": "event", "event": "connect.challenge",
                       "payload": {"nonce": secrets.token_hex(16), "ts": int(time.time() * 1000)}})


CONNECT_MODES = ("hellook", "pairing", "tokenmismatch", "tokenmissing", "protocol", "starting", "close1008")


def connect_answer(mode, request):
    """The response frame (or None) and the close (code, reason) for a connect request, shaped
    as src/gateway/server/ws-connection/connect-*.ts and connect-error-details.ts shape them."""
    rid = request.get("id", "0")

    def error(code, message, details, close, **extra):
        shape = {"code": code, "message": message, "details": details, **extra}
        return {"type": "res", "id": rid, "ok": False, "error": shape}, close

    if mode == "hellook":
        payload = {"type": "hello-ok", "protocol": 4, "server": {"version": "2026.5.1-peer", "connId": secrets.token_hex(8)},
                   "features": {"methods": ["health"], "events": ["tick"]}, "snapshot": {},
                   "auth": {"role": "operator", "scopes": ["operator.read"]},
                   "policy": {"maxPayload": 26214400, "maxBufferedBytes": 52428800, "tickIntervalMs": 30000}}
        return {"type": "res", "id": rid, "ok": True, "payload": payload}, None
    if mode == "pairing":
        request_id = secrets.token_hex(16)
        return error("NOT_PAIRED", "pairing required: device is not approved yet",
                     {"code": "PAIRING_REQUIRED", "reason": "not-paired", "requestId": request_id,
                      "remediationHint": "Approve this device from the pending pairing requests."},
                     (1008, f"pairing required: device is not approved yet (requestId: {request_id})"))
    if mode in ("tokenmismatch", "tokenmissing"):
        missing = mode == "tokenmissing"
        message = f"unauthorized: gateway token {'missing' if missing else 'mismatch'} (set gateway.remote.token to match gateway.auth.token)"
        return error("INVALID_REQUEST", message,
                     {"code": "AUTH_TOKEN_MISSING" if missing else "AUTH_TOKEN_MISMATCH",
                      "authReason": "token_missing" if missing else "token_mismatch", "canRetryWithDeviceToken": False,
                      "recommendedNextStep": "update_auth_configuration" if missing else "update_auth_credentials"},
                     (1008, message[:123]))
    if mode == "protocol":
        params = request.get("params") or {}
        return error("INVALID_REQUEST", "protocol mismatch",
                     {"code": "PROTOCOL_MISMATCH", "clientMinProtocol": params.get("minProtocol"),
                      "clientMaxProtocol": params.get("maxProtocol"), "expectedProtocol": 5, "minimumProbeProtocol": 3},
                     (1002, "protocol mismatch"))
    if mode == "starting":
        return error("UNAVAILABLE", "gateway starting; retry shortly", {"reason": "startup-sidecars"}, (1013, "gateway starting"),
                     retryable=True, retryAfterMs=500)
    if mode == "close1008":
        return None, (1008, "invalid request frame")
    return error("NOT_PAIRED", "device identity required", {"code": "DEVICE_IDENTITY_REQUIRED"}, (1008, "device identity required"))


def expired_certificate(directory):
    """An RSA certificate, CN=openclaw-gateway like OpenClaw's, valid only in the past."""
    from cryptography import x509
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import NameOID

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "openclaw-gateway")])
    return write_self_signed(directory, "expired", key, name, -30, -1)


def tls_context(args):
    cert, key = args.cert, args.key
    if args.mode == "expired":
        cert, key = expired_certificate(tempfile.mkdtemp(prefix="gateway-peer-"))
    if not cert:
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    if args.mode == "tls12":
        context.minimum_version = context.maximum_version = ssl.TLSVersion.TLSv1_2
    elif args.mode == "tlsalert":
        context.set_ciphers("CAMELLIA256-SHA:@SECLEVEL=0")
        context.minimum_version = context.maximum_version = ssl.TLSVersion.TLSv1_2
    elif args.mode == "tls11":
        context.set_ciphers("DEFAULT:@SECLEVEL=0")   # OpenSSL 3 refuses TLS 1.1 at the default level
        context.minimum_version = context.maximum_version = ssl.TLSVersion.TLSv1_1
    else:
        context.minimum_version = ssl.TLSVersion.TLSv1_3   # OpenClaw Gateways require TLS 1.3
    return context


async def websocket_gateway(args, context):
    def process_request(connection, request):
        if request.path in ("/health", "/healthz"):
            return connection.respond(HTTPStatus.OK, '{"ok":true,"status":"live"}\n')
        if request.path in ("/ready", "/readyz"):
            if args.mode == "notready":
                return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, '{"ok":false,"status":"starting"}\n')
            return connection.respond(HTTPStatus.OK, '{"ok":true,"status":"ready"}\n')
        return None

    async def handler(websocket):
        if args.mode == "wrongframe":
            await websocket.send(json.dumps({"type": "event", "event": "tick", "payload": {}}))
        elif args.mode == "bigframe":
            await websocket.send("x" * 10_000_000)
        else:
            await websocket.send(challenge())
            try:
                request = json.loads(await websocket.recv())
            except (websockets.ConnectionClosed, ValueError):
                return
            if args.record:
                with open(args.record, "a") as record:
                    record.write(json.dumps(request) + "\n")
            answer, close = connect_answer(args.mode, request if isinstance(request, dict) else {})
            if answer is not None:
                await websocket.send(json.dumps(answer))
            if close is not None:
                await websocket.close(code=close[0], reason=close[1])
                return
        try:
            async for _ in websocket:
                pass
        except websockets.ConnectionClosed:
            pass

    async with serve(handler, args.address, args.port, ssl=context, process_request=process_request, max_size=2**24):
        print("ready", flush=True)
        await asyncio.Future()


async def raw_server(args, context):
    async def handle(reader, writer):
        try:
            if args.mode == "silent":
                await asyncio.sleep(3600)
            elif args.mode == "garbage":
                writer.write(os.urandom(64))
                await writer.drain()
                await asyncio.sleep(3600)
            elif args.mode == "nginx":
                await reader.readuntil(b"\r\n\r\n")
                body = b"<html><center><h1>404 Not Found</h1></center></html>"
                writer.write(b"HTTP/1.1 404 Not Found\r\nServer: nginx/1.24.0\r\nContent-Type: text/html\r\n"
                             b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
                await writer.drain()
            elif args.mode == "http200":
                await reader.readuntil(b"\r\n\r\n")
                body = b"<html>not a gateway</html>"
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
                await writer.drain()
                await asyncio.sleep(3600)
            elif args.mode == "dribble":
                request = await reader.readuntil(b"\r\n\r\n")
                key = [line.split(b":", 1)[1].strip() for line in request.split(b"\r\n") if line.lower().startswith(b"sec-websocket-key")][0]
                import base64
                import hashlib
                accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
                writer.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                             b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
                await writer.drain()
                payload = challenge().encode()
                frame = bytes([0x81, len(payload)]) + payload if len(payload) < 126 else bytes([0x81, 126]) + len(payload).to_bytes(2, "big") + payload
                for byte in frame:
                    writer.write(bytes([byte]))
                    await writer.drain()
                    await asyncio.sleep(1)
        except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, args.address, args.port,
                                        ssl=context if args.mode in ("http200", "dribble", "nginx") else None)
    async with server:
        print("ready", flush=True)
        await server.serve_forever()


def blocking_tls_server(args, context):
    """A plain blocking TLS server: OpenSSL writes its alert (or its old ServerHello) straight to
    the socket before the handshake fails, which asyncio's TLS transport does not flush."""
    import socket
    import threading
    listener = socket.create_server((args.address, args.port))
    print("ready", flush=True)

    def serve(connection):
        with connection:
            try:
                context.wrap_socket(connection, server_side=True).close()
            except (ssl.SSLError, OSError):
                pass

    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["gateway", "notready", "wrongframe", "silent", "garbage", "http200", "dribble",
                                         "bigframe", "tls12", "tls11", "tlsalert", "expired", "nginx", *CONNECT_MODES])
    parser.add_argument("--address", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--record")
    parser.add_argument("--print-handshakes", action="store_true")
    args = parser.parse_args()
    context = tls_context(args)
    if context is not None and args.print_handshakes:
        context.sni_callback = lambda _socket, name, _context: print(f"tls handshake {name}", flush=True)
    if args.mode in ("tls11", "tlsalert"):
        blocking_tls_server(args, context)
    elif args.mode in ("silent", "garbage", "http200", "dribble", "nginx"):
        asyncio.run(raw_server(args, context))
    else:
        asyncio.run(websocket_gateway(args, context))


if __name__ == "__main__":
    sys.exit(main())
