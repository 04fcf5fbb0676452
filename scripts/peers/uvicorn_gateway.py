#!/usr/bin/env python3
"""An OpenClaw Gateway's HTTP and WebSocket opening served by uvicorn (h11 for HTTP, and the
WebSocket implementation asked for: wsproto is h11's sibling, websockets the other), independent
of clawnet: what a third-party ASGI Gateway or proxy in Python looks like to doctor. Run it inside
a test-bed namespace. Prints "ready" once listening; runs until killed.

    uvicorn_gateway.py wsproto|websockets --address 127.0.0.1 --port 18789

/healthz and /readyz answer {"ok":true,...}; a WebSocket gets connect.challenge first and is
closed normally when the client closes (or after 30 s).
"""
import argparse
import asyncio
import json
import sys
import time

import uvicorn


async def app(scope, receive, send):
    if scope["type"] == "http":
        status, body = (200, {"ok": True, "status": "live"}) if scope["path"] in ("/health", "/healthz", "/ready", "/readyz") else (
            404, {"ok": False, "error": "not found"})
        await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": json.dumps(body).encode()})
    elif scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        challenge = {"type": "event", "event": "connect.challenge", "payload": {"nonce": "uvicorn-nonce", "ts": int(time.time() * 1000)}}
        await send({"type": "websocket.send", "text": json.dumps(challenge)})
        try:
            while True:
                message = await asyncio.wait_for(receive(), timeout=30)
                if message["type"] == "websocket.disconnect":
                    return
        except asyncio.TimeoutError:
            await send({"type": "websocket.close", "code": 1000})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("ws", choices=["wsproto", "websockets"])
    arguments = parser.parse_args()
    config = uvicorn.Config(app, host=arguments.address, port=arguments.port, http="h11", ws=arguments.ws, lifespan="off",
                            log_level="warning")
    server = uvicorn.Server(config)

    async def serve():
        serving = asyncio.create_task(server.serve())
        while not server.started and not serving.done():
            await asyncio.sleep(0.05)
        if server.started:
            print("ready", flush=True)
        await serving
        if not server.started:
            sys.exit(1)

    asyncio.run(serve())


if __name__ == "__main__":
    main()
