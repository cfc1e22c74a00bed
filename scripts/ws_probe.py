#!/usr/bin/env python3
"""A WebSocket client that never says hello (scripts/package_test.sh).

Connects from a chosen local address, sends the handshake for /ws with an optional
X-Forwarded-For header, and waits for the server to close the connection (a node closes one
without `hello` after --hello-timeout seconds, logging the client address it believed). Prints
the close code and reason; exits 1 when the handshake is refused or no close frame arrives.

usage: ws_probe.py HOST PORT SOURCE_ADDRESS [X-FORWARDED-FOR]
"""
import base64
import os
import socket
import struct
import sys


def read_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError("connection closed without a close frame")
        data += chunk
    return data


def main():
    host, port, source = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    forwarded = sys.argv[4] if len(sys.argv) > 4 else None
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(15)
    sock.bind((source, 0))
    sock.connect((host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
    if forwarded:
        request += f"X-Forwarded-For: {forwarded}\r\n"
    sock.sendall((request + "\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += read_exact(sock, 1)
    status = head.split(b"\r\n", 1)[0].decode()
    if " 101 " not in status + " ":
        print(f"handshake refused: {status}")
        return 1
    while True:
        b0, b1 = read_exact(sock, 2)
        length = b1 & 0x7F
        if length == 126:
            length = struct.unpack("!H", read_exact(sock, 2))[0]
        elif length == 127:
            length = struct.unpack("!Q", read_exact(sock, 8))[0]
        payload = read_exact(sock, length)
        if b0 & 0x0F == 8:  # close
            code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 0
            print(f"closed {code} {payload[2:].decode(errors='replace')}")
            return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, EOFError) as e:
        print(f"ws_probe: {e}")
        sys.exit(1)
