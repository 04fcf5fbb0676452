#!/usr/bin/env python3
"""Third-party OpenClaw clients against a Gateway (clawnet's stand-in in the tests), one run
each, printing one JSON line with what happened. Run it inside a test-bed namespace.

    openclaw_clients.py identity HOME TOKEN          a device identity and device-auth token in HOME/.openclaw
                                                     (OpenClaw's files); prints {"deviceId": ...}
    openclaw_clients.py sdk URL HOME TICK            openclaw-sdk (PyPI) itself: connect, health(), then after
                                                     2.5 ticks health() again
    openclaw_clients.py webchat URL HOME TOKEN TICK  what openclaw-webchat-adapter sends: webchat-ui/webchat,
                                                     protocol [3,3], a v2 device signature
    openclaw_clients.py agentwatch URL TOKEN TICK    what agentwatch-cli sends: gateway-client/backend, [3,3],
                                                     a token, no device (the package pins websockets<15.1:
                                                     it cannot sit beside the peers' websockets)
    openclaw_clients.py invalid URL KIND             a connect OpenClaw's schema refuses: bad-id, bad-mode,
                                                     no-client; prints the error and the close
    openclaw_clients.py hold URL COUNT SECONDS       opens COUNT WebSockets that never log in, prints how many
                                                     opened and how many got HTTP 503, holds them SECONDS
    openclaw_clients.py flood HOST PORT COUNT SECONDS [ADDRESSES]
                                                     opens COUNT TCP connections that send nothing, holds
                                                     them SECONDS (issue 30's idle flood); with ADDRESSES
                                                     (at most 1000), from that many sources 127.1.x.y in turn

Every wait is bounded; the result line is the last line printed.
"""
import asyncio
import base64
import hashlib
import json
import os
import sys
import time
import uuid

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

LIMIT = 20.0


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def identity(home: str, token: str) -> dict:
    key = Ed25519PrivateKey.generate()
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    device_id = hashlib.sha256(raw).hexdigest()
    folder = os.path.join(home, ".openclaw", "identity")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    private_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    public_pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    stored = {"version": 1, "deviceId": device_id, "publicKeyPem": public_pem, "privateKeyPem": private_pem,
              "createdAtMs": int(time.time() * 1000)}
    auth = {"version": 1, "deviceId": device_id,
            "tokens": {"operator": {"token": token, "role": "operator", "scopes": ["operator.read"]}}}
    for name, value in (("device.json", stored), ("device-auth.json", auth)):
        path = os.path.join(folder, name)
        with open(path, "w") as handle:
            json.dump(value, handle)
        os.chmod(path, 0o600)
    return {"deviceId": device_id}


def load_key(home: str):
    with open(os.path.join(home, ".openclaw", "identity", "device.json")) as handle:
        stored = json.load(handle)
    key = serialization.load_pem_private_key(stored["privateKeyPem"].encode(), password=None)
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return stored["deviceId"], key, b64url(raw)


async def handshake(ws, params: dict, sign=None) -> dict:
    """connect.challenge, then connect; the answer frame."""
    challenge = json.loads(await asyncio.wait_for(ws.recv(), LIMIT))
    nonce = challenge.get("payload", {}).get("nonce", "")
    if sign:
        params["device"] = sign(nonce)
    await ws.send(json.dumps({"type": "req", "id": str(uuid.uuid4()), "method": "connect", "params": params}))
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), LIMIT))
        if frame.get("type") == "res":
            return frame


async def session(ws, tick: float) -> dict:
    """After hello-ok: ticks over 2.5 intervals, and the answer to health."""
    ticks, health = 0, None
    request = str(uuid.uuid4())
    await ws.send(json.dumps({"type": "req", "id": request, "method": "health", "params": {}}))
    deadline = time.monotonic() + 2.5 * tick
    try:
        while time.monotonic() < deadline:
            frame = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic())))
            if frame.get("event") == "tick":
                ticks += 1
            if frame.get("type") == "res" and frame.get("id") == request:
                health = frame.get("ok")
    except asyncio.TimeoutError:
        pass
    return {"ticks": ticks, "health": health, "open": ws.state.name == "OPEN"}


def closed(ws) -> dict:
    return {"closeCode": ws.close_code, "closeReason": ws.close_reason}


async def webchat(url: str, home: str, token: str, tick: float) -> dict:
    device_id, key, public = load_key(home)
    params = {"minProtocol": 3, "maxProtocol": 3, "role": "operator", "scopes": ["operator.read"], "auth": {"token": token},
              "client": {"id": "webchat-ui", "displayName": "py", "version": "0.0.7", "platform": "python", "mode": "webchat",
                         "instanceId": "py-" + str(uuid.uuid4())}}

    def sign(nonce: str) -> dict:
        signed_at = int(time.time() * 1000)
        payload = f"v2|{device_id}|webchat-ui|webchat|operator|operator.read|{signed_at}|{token}|{nonce}"
        return {"id": device_id, "publicKey": public, "signature": b64url(key.sign(payload.encode())),
                "signedAt": signed_at, "nonce": nonce}

    async with connect(url, open_timeout=LIMIT) as ws:
        answer = await handshake(ws, params, sign)
        result = {"ok": answer.get("ok"), "error": answer.get("error")}
        if answer.get("ok"):
            result.update(await session(ws, tick))
        return result


async def agentwatch(url: str, token: str, tick: float) -> dict:
    params = {"minProtocol": 3, "maxProtocol": 3, "role": "operator", "auth": {"token": token},
              "scopes": ["operator.read", "operator.write", "operator.admin"],
              "client": {"id": "gateway-client", "mode": "backend", "version": "0.1.0", "platform": "python"}}
    async with connect(url, open_timeout=LIMIT) as ws:
        answer = await handshake(ws, params)
        result = {"ok": answer.get("ok"), "error": answer.get("error")}
        if answer.get("ok"):
            result.update(await session(ws, tick))
        return result


async def invalid(url: str, kind: str) -> dict:
    client = {"id": "cli", "mode": "cli", "version": "1", "platform": "linux"}
    params = {"minProtocol": 3, "maxProtocol": 4, "role": "operator", "scopes": [], "client": client}
    if kind == "bad-id":
        client["id"] = "my-bot"
    elif kind == "bad-mode":
        client["mode"] = "agent"
    else:
        del params["client"]
    async with connect(url, open_timeout=LIMIT) as ws:
        answer = await handshake(ws, params)
        try:
            await asyncio.wait_for(ws.recv(), LIMIT)
        except ConnectionClosed:
            pass
        return {"ok": answer.get("ok"), "error": answer.get("error"), **closed(ws)}


async def sdk(url: str, home: str, tick: float) -> dict:
    os.environ["HOME"] = home
    from openclaw_sdk.gateway.protocol import ProtocolGateway

    gateway = ProtocolGateway(ws_url=url, connect_timeout=LIMIT)
    try:
        await asyncio.wait_for(gateway.connect(), LIMIT * 2)
    except Exception as error:  # the SDK raises its own errors: the words are the result
        return {"connected": False, "error": str(error)[:300]}
    first = await asyncio.wait_for(gateway.health(), LIMIT)
    await asyncio.sleep(2.5 * tick)
    second = await asyncio.wait_for(gateway.health(), LIMIT)
    await gateway.close()
    return {"connected": True, "healthy": first.healthy, "healthyAfterTicks": second.healthy}


async def hold(url: str, count: int, seconds: float) -> dict:
    sockets, refused = [], 0
    for _ in range(count):
        try:
            ws = await connect(url, open_timeout=LIMIT)
            await asyncio.wait_for(ws.recv(), LIMIT)
            sockets.append(ws)
        except InvalidStatus as error:
            refused += 1 if error.response.status_code == 503 else 0
    print(json.dumps({"opened": len(sockets), "refused503": refused}), flush=True)
    await asyncio.sleep(min(seconds, 60))
    alive = sum(1 for ws in sockets if ws.state.name == "OPEN")
    return {"opened": len(sockets), "refused503": refused, "stillOpen": alive}


async def flood(host: str, port: int, count: int, seconds: float, addresses: int = 0) -> dict:
    held = []
    addresses = min(addresses, 1000)
    for index in range(min(count, 2000)):
        # 127.0.0.0/8 is all local: each source a host of its own to the server.
        source = (f"127.1.{1 + index % addresses // 250}.{1 + index % addresses % 250}", 0) if addresses else None
        try:
            held.append(await asyncio.wait_for(asyncio.open_connection(host, port, local_addr=source), LIMIT))
        except (OSError, asyncio.TimeoutError):
            break
    print(json.dumps({"flooding": len(held)}), flush=True)
    await asyncio.sleep(min(seconds, 60))
    for _, writer in held:
        writer.close()
    return {"held": len(held)}


def main() -> None:
    mode, arguments = sys.argv[1], sys.argv[2:]
    if mode == "identity":
        result = identity(*arguments)
    elif mode == "sdk":
        result = asyncio.run(sdk(arguments[0], arguments[1], float(arguments[2])))
    elif mode == "webchat":
        result = asyncio.run(webchat(arguments[0], arguments[1], arguments[2], float(arguments[3])))
    elif mode == "agentwatch":
        result = asyncio.run(agentwatch(arguments[0], arguments[1], float(arguments[2])))
    elif mode == "invalid":
        result = asyncio.run(invalid(arguments[0], arguments[1]))
    elif mode == "flood":
        spread = int(arguments[4]) if len(arguments) > 4 else 0
        result = asyncio.run(flood(arguments[0], int(arguments[1]), int(arguments[2]), float(arguments[3]), spread))
    elif mode == "hold":
        result = asyncio.run(hold(arguments[0], int(arguments[1]), float(arguments[2])))
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
