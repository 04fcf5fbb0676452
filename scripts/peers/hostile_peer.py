#!/usr/bin/env python3
"""Servers that misbehave on purpose, for clawnet's tests. Run inside a test-bed namespace.

    hostile_peer.py MODE --address 127.0.0.1 --port 5400 [--instances N] [--txt-strings N]

Modes:
  udp-silent    reads DNS queries and never answers
  udp-garbage   answers every datagram with random bytes (with the query's id)
  tc-dribble    answers every UDP query empty with TC set; over TCP, reads the query and
                sends its answer one byte a second, never finishing it
  axfr-deep     answers a zone transfer (TCP) of openclaw.internal with --instances A records
                at one name of 115 labels, every owner after the first of a message a
                compression pointer to it (no server can load such a zone: BIND runs out of
                space for one RRset that large); with --stall-after N it sends N messages,
                then nothing, holding the connection
  query-answer  over TCP, answers every message with its id, QR set, opcode QUERY and
                NOERROR, nothing else: what a careless server (or an attacker) sends back to
                an UPDATE
  dns-flood     a DNS server (UDP and TCP) whose every domain lists as many instances of
                _openclaw-gw._tcp as fit in one message (at most --instances), each with its
                own SRV target and a TXT record of 64 KiB (--txt-strings 255-byte strings,
                terminal escapes in them), every host with 16 A records: the most one browse
                can be made to hold
Prints "ready" once listening; runs until killed.
"""
import argparse
import os
import socket
import struct
import sys
import threading
import time

PTR, A, TXT, SRV = 12, 1, 16, 33


def read_name(message, offset):
    labels = []
    while True:
        length = message[offset]
        if length & 0xC0 == 0xC0:
            labels += read_name(message, struct.unpack("!H", message[offset:offset + 2])[0] & 0x3FFF)[0]
            return labels, offset + 2
        offset += 1
        if length == 0:
            return labels, offset
        labels.append(message[offset:offset + length])
        offset += length


def encode_name(labels):
    return b"".join(bytes([len(label)]) + label for label in labels) + b"\0"


def flood_answer(query, limit, over_tcp, txt_strings=255):
    """The answer to one question: everything as large as DNS allows, truncated over UDP."""
    labels, end = read_name(query, 12)
    qtype = struct.unpack("!H", query[end:end + 2])[0]
    question = query[12:end + 4]
    owner = b"\xc0\x0c"  # the question's name
    records = []
    if qtype == PTR and [label.lower() for label in labels[:2]] == [b"_openclaw-gw", b"_tcp"]:
        # PTR targets: a short label, then a pointer to the question's name.
        for index in range(limit):
            target = bytes([len(b"%x" % index)]) + b"%x" % index + b"\xc0\x0c"
            records.append(owner + struct.pack("!HHIH", PTR, 1, 60, len(target)) + target)
    elif qtype == SRV:
        target = encode_name([b"h" + labels[0][:20].hex().encode()] + labels[3:])
        rdata = struct.pack("!HHH", 0, 0, 18789) + target
        records.append(owner + struct.pack("!HHIH", SRV, 1, 60, len(rdata)) + rdata)
    elif qtype == TXT:
        text = (b"role=gateway\x1b[2J" + b"x" * 255)[:255]
        rdata = b"".join(bytes([len(text)]) + text for _ in range(txt_strings))
        records.append(owner + struct.pack("!HHIH", TXT, 1, 60, len(rdata)) + rdata)
    elif qtype == A:
        for index in range(16):
            records.append(owner + struct.pack("!HHIH", A, 1, 60, 4) + bytes([10, 0, index, 1]))
    header = struct.pack("!HHHHHH", struct.unpack("!H", query[:2])[0], 0x8400, 1, 0, 0, 0)
    body, count = b"", 0
    budget = 65535 - 12 - len(question) if over_tcp else 1232 - 12 - len(question)
    for record in records:
        if len(body) + len(record) > budget:
            if not over_tcp:
                return struct.pack("!HHHHHH", struct.unpack("!H", query[:2])[0], 0x8600, 1, 0, 0, 0) + question
            break
        body += record
        count += 1
    return header[:6] + struct.pack("!H", count) + header[8:] + question + body


def serve_tcp(sock, limit, txt_strings):
    while True:
        connection, _ = sock.accept()
        threading.Thread(target=tcp_client, args=(connection, limit, txt_strings), daemon=True).start()


def tcp_client(connection, limit, txt_strings):
    try:
        while True:
            head = connection.recv(2, socket.MSG_WAITALL)
            if len(head) < 2:
                return
            query = connection.recv(struct.unpack("!H", head)[0], socket.MSG_WAITALL)
            answer = flood_answer(query, limit, True, txt_strings)
            connection.sendall(struct.pack("!H", len(answer)) + answer)
    except (OSError, IndexError, struct.error):
        pass
    finally:
        connection.close()


def truncated(query):
    """The query sent back as a response (QR, AA, TC) with no records: ask again over TCP."""
    flags = struct.unpack("!H", query[2:4])[0] | 0x8000 | 0x0400 | 0x0200
    return query[:2] + struct.pack("!H", flags) + query[4:6] + b"\0" * 6 + query[12:]


def query_answers(sock):
    while True:
        connection, _ = sock.accept()
        try:
            head = connection.recv(2, socket.MSG_WAITALL)
            message = connection.recv(struct.unpack("!H", head)[0], socket.MSG_WAITALL)
            answer = message[:2] + struct.pack("!HHHHH", 0x8000, 0, 0, 0, 0)
            connection.sendall(struct.pack("!H", len(answer)) + answer)
        except (OSError, struct.error):
            pass
        finally:
            connection.close()


def dribble_tcp(sock):
    while True:
        connection, _ = sock.accept()
        threading.Thread(target=dribble_client, args=(connection,), daemon=True).start()


def dribble_client(connection):
    try:
        connection.recv(65535)
        connection.sendall(b"\xff")
        while True:
            time.sleep(1)
            connection.sendall(b"\0")
    except OSError:
        pass
    finally:
        connection.close()


def deep_transfer(query, count):
    """The messages of a transfer of `count` A records at one 115-label name, SOA first and last."""
    apex = encode_name([b"openclaw", b"internal"])
    deep = encode_name([b"a"] * 115 + [b"openclaw", b"internal"])
    soa = b"\xc0\x0c" + struct.pack("!HHIH", 6, 1, 60, len(apex) * 2 + 20) + apex + apex + struct.pack("!IIIII", 1, 7200, 3600, 1209600, 60)
    question = query[12:]
    messages, index = [], 0
    while index < count or not messages:
        records = [soa] if not messages else []
        first = 12 + len(question) + sum(map(len, records))
        while index < count and len(records) < 3000:
            owner = deep if len(records) == (1 if not messages else 0) else struct.pack("!H", 0xC000 | first)
            records.append(owner + struct.pack("!HHIH", A, 1, 60, 4) + struct.pack("!I", 0x0A000000 | index))
            index += 1
        messages.append(records)
    messages.append([soa])
    return [query[:2] + struct.pack("!HHHHH", 0x8400, 1, len(records), 0, 0) + question + b"".join(records) for records in messages]


def serve_deep(sock, count, stall_after):
    while True:
        connection, _ = sock.accept()
        try:
            head = connection.recv(2, socket.MSG_WAITALL)
            query = connection.recv(struct.unpack("!H", head)[0], socket.MSG_WAITALL)
            for sent, message in enumerate(deep_transfer(query, count)):
                if stall_after is not None and sent == stall_after:
                    # A transfer that stops half way and holds the connection: only the client's deadline ends it.
                    connection.recv(1)
                    break
                connection.sendall(struct.pack("!H", len(message)) + message)
        except (OSError, struct.error):
            pass
        finally:
            connection.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["udp-silent", "udp-garbage", "dns-flood", "tc-dribble", "axfr-deep", "query-answer"])
    parser.add_argument("--address", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--instances", type=int, default=10_000)
    parser.add_argument("--stall-after", type=int, help="axfr-deep: send this many messages, then nothing more")
    parser.add_argument("--txt-strings", type=int, default=255, help="dns-flood: 255-byte strings per TXT record")
    args = parser.parse_args()

    family = socket.AF_INET6 if ":" in args.address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_DGRAM)
    sock.bind((args.address, args.port))
    # The modes that also listen on TCP: what serves each connection, and its arguments.
    tcp_servers = {
        "dns-flood": (serve_tcp, (args.instances, args.txt_strings)),
        "axfr-deep": (serve_deep, (args.instances, args.stall_after)),
        "query-answer": (query_answers, ()),
        "tc-dribble": (dribble_tcp, ()),
    }
    if args.mode in tcp_servers:
        serve, extra = tcp_servers[args.mode]
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((args.address, args.port))
        listener.listen(64)
        threading.Thread(target=serve, args=(listener, *extra), daemon=True).start()
    print("ready", flush=True)
    while True:
        data, peer = sock.recvfrom(65535)
        if args.mode == "udp-garbage" and len(data) >= 2:
            sock.sendto(data[:2] + os.urandom(40), peer)
        elif args.mode == "tc-dribble" and len(data) >= 12:
            sock.sendto(truncated(data), peer)
        elif args.mode == "dns-flood" and len(data) >= 12:
            try:
                sock.sendto(flood_answer(data, args.instances, False, args.txt_strings), peer)
            except (IndexError, struct.error):
                pass


if __name__ == "__main__":
    sys.exit(main())
