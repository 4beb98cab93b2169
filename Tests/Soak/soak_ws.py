"""A minimal RFC 6455 WebSocket client over raw sockets + ssl, with byte-level control for hostile behaviour.

Every socket operation has a timeout. The client is driven by one thread at a time (its owner): `poll` reads what
the socket has and returns whole messages, answering pings and close frames by itself. Hostile helpers let the
owner stop reading (just stop calling `poll`), cut a frame in the middle, cut the TLS handshake or the HTTP
upgrade in the middle, or go half-open (stop sending and reading, keep the socket).
"""
import base64
import errno
import hashlib
import json
import os
import select
import socket
import ssl
import struct
import time

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


class WSClosed(Exception):
    """The connection is gone: `code` is the server's close code (None for a drop), `reason` says how."""

    def __init__(self, code, reason):
        super().__init__(f"closed ({code}): {reason}")
        self.code = code
        self.reason = reason


def tls_context(ca_file):
    context = ssl.create_default_context(cafile=ca_file)
    context.check_hostname = True
    return context


def raw_connect(port, timeout, rcvbuf=None, host="127.0.0.1"):
    """A TCP connection to 127.0.0.1:port; SO_RCVBUF is set before connect, so the window is small from the start."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if rcvbuf:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.settimeout(timeout)
        sock.connect((host, port))
        return sock
    except BaseException:
        sock.close()
        raise


def abort_socket(sock):
    """Closes with a TCP reset (SO_LINGER 0), never waiting for anything."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass


def frame_bytes(opcode, payload, fin=True, mask=True):
    """One client frame: FIN + opcode, masked payload (RFC 6455 §5.2, §5.3)."""
    header = bytearray([(0x80 if fin else 0) | opcode])
    length = len(payload)
    mask_bit = 0x80 if mask else 0
    if length < 126:
        header.append(mask_bit | length)
    elif length < 65536:
        header.append(mask_bit | 126)
        header += struct.pack("!H", length)
    else:
        header.append(mask_bit | 127)
        header += struct.pack("!Q", length)
    if not mask:
        return bytes(header) + payload
    key = os.urandom(4)
    header += key
    if length:
        # XOR with the repeated key in one big-integer operation (fast enough for a few KB).
        repeated = (key * (length // 4 + 1))[:length]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(length, "big")
    else:
        masked = b""
    return bytes(header) + masked


def upgrade_request(port, key):
    return (
        f"GET /v1/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


class WSClient:
    """One WebSocket connection. Not thread-safe: one owner thread calls everything."""

    def __init__(self, port, ca_context, timeout=10.0, rcvbuf=None, name="ws"):
        self.port = port
        self.context = ca_context
        self.timeout = timeout
        self.rcvbuf = rcvbuf
        self.name = name
        self.sock = None
        self.buf = bytearray()
        self.pos = 0
        self.fragments = None
        self.close_code = None
        self.close_reason = None
        self.closed = False
        self.bytes_in = 0

    # -- opening -------------------------------------------------------------------------------------------------

    def open(self):
        """TCP + TLS + upgrade. Raises OSError / ssl.SSLError / WSClosed on failure (the socket is closed then)."""
        raw = raw_connect(self.port, self.timeout, self.rcvbuf)
        try:
            tls = self.context.wrap_socket(raw, server_hostname="127.0.0.1", do_handshake_on_connect=False)
            tls.settimeout(self.timeout)
            tls.do_handshake()
            self.sock = tls
            key = base64.b64encode(os.urandom(16)).decode()
            self.sock.sendall(upgrade_request(self.port, key))
            head = self._read_http_head()
            status = head.split(b"\r\n", 1)[0]
            if b" 101 " not in status + b" ":
                raise WSClosed(None, f"upgrade refused: {status.decode(errors='replace')}")
            expected = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest())
            if expected not in head:
                raise WSClosed(None, "bad Sec-WebSocket-Accept")
            return self
        except BaseException:
            self.sock = self.sock or raw
            self.drop()
            raise

    def _read_http_head(self):
        deadline = time.monotonic() + self.timeout
        while True:
            end = self.buf.find(b"\r\n\r\n", self.pos)
            if end >= 0:
                head = bytes(self.buf[self.pos:end + 4])
                self.pos = end + 4
                return head
            if len(self.buf) > 16384 or time.monotonic() > deadline:
                raise WSClosed(None, "no HTTP answer to the upgrade")
            self._recv_some(max(0.05, deadline - time.monotonic()))

    # -- sending -------------------------------------------------------------------------------------------------

    def send_text(self, text):
        self.send_raw(frame_bytes(OP_TEXT, text.encode() if isinstance(text, str) else text))

    def send_json(self, value):
        self.send_text(json.dumps(value, separators=(",", ":"), ensure_ascii=False))

    def send_raw(self, data):
        if self.closed or self.sock is None:
            raise WSClosed(self.close_code, "already closed")
        try:
            self.sock.sendall(data)
        except (OSError, ssl.SSLError) as error:
            self.drop()
            raise WSClosed(None, f"send failed: {error}")

    def send_close(self, code=1000):
        try:
            self.send_raw(frame_bytes(OP_CLOSE, struct.pack("!H", code)))
        except WSClosed:
            pass

    # -- receiving -----------------------------------------------------------------------------------------------

    def _recv_some(self, timeout):
        """Reads what is there (waits at most `timeout`). Returns the byte count; raises WSClosed on EOF/error."""
        if self.sock is None:
            raise WSClosed(self.close_code, "not connected")
        pending = isinstance(self.sock, ssl.SSLSocket) and self.sock.pending() > 0
        if not pending:
            try:
                ready, _, _ = select.select([self.sock], [], [], max(0.0, timeout))
            except (OSError, ValueError) as error:
                self.drop()
                raise WSClosed(None, f"select failed: {error}")
            if not ready:
                return 0
        try:
            self.sock.settimeout(max(0.05, min(timeout, self.timeout)) if timeout > 0 else 0.05)
            data = self.sock.recv(262144)
        except (socket.timeout, ssl.SSLWantReadError):
            return 0
        except (OSError, ssl.SSLError) as error:
            code = self.close_code
            self.drop()
            reset = getattr(error, "errno", None) == errno.ECONNRESET
            raise WSClosed(code, "reset by peer" if reset else f"read failed: {error}")
        if not data:
            code = self.close_code
            self.drop()
            raise WSClosed(code, "EOF" if code is None else "closed")
        self.bytes_in += len(data)
        self.buf += data
        return len(data)

    def _next_frame(self):
        """Parses one frame from the buffer: (fin, opcode, payload) or None when incomplete."""
        buf, pos = self.buf, self.pos
        if len(buf) - pos < 2:
            return None
        b0, b1 = buf[pos], buf[pos + 1]
        length = b1 & 0x7F
        offset = pos + 2
        if length == 126:
            if len(buf) - offset < 2:
                return None
            length = struct.unpack_from("!H", buf, offset)[0]
            offset += 2
        elif length == 127:
            if len(buf) - offset < 8:
                return None
            length = struct.unpack_from("!Q", buf, offset)[0]
            offset += 8
        if b1 & 0x80:
            raise WSClosed(None, "the server sent a masked frame")
        if len(buf) - offset < length:
            return None
        payload = bytes(buf[offset:offset + length])
        self.pos = offset + length
        if self.pos > 1 << 20 or self.pos == len(buf):
            del self.buf[:self.pos]
            self.pos = 0
        return bool(b0 & 0x80), b0 & 0x0F, payload

    def poll(self, timeout):
        """Returns the whole text messages available now, waiting at most `timeout` for the first bytes.

        Pings are answered. A close frame is answered; the messages before it are returned first, and the next
        call (or this one, when there were none) raises WSClosed with the server's code."""
        if self.closed:
            raise WSClosed(self.close_code, self.close_reason or "closed")
        messages = []
        if not self._drain_frames(messages):
            self._recv_some(timeout)
            self._drain_frames(messages)
        if self.close_code is not None and not messages:
            self.closed = True
            raise WSClosed(self.close_code, self.close_reason or "close frame")
        return messages

    def _drain_frames(self, messages):
        """Moves the buffer's complete frames into `messages`; True when it consumed any frame."""
        consumed = False
        while self.close_code is None:
            frame = self._next_frame()
            if frame is None:
                break
            consumed = True
            fin, opcode, payload = frame
            if opcode == OP_PING:
                try:
                    self.send_raw(frame_bytes(OP_PONG, payload))
                except WSClosed:
                    pass
            elif opcode == OP_PONG:
                pass
            elif opcode == OP_CLOSE:
                self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                self.close_reason = payload[2:].decode(errors="replace")
                answer = self.close_code if (self.close_code == 1000 or 3000 <= self.close_code < 5000) else 1000
                self.send_close(answer)
            elif opcode == OP_CONT:
                if self.fragments is None:
                    raise WSClosed(None, "continuation without a message")
                self.fragments += payload
                if fin:
                    messages.append(bytes(self.fragments))
                    self.fragments = None
            elif not fin:
                self.fragments = bytearray(payload)
            else:
                messages.append(payload)
        return consumed

    def shutdown(self, code=1000, wait=1.0):
        """Polite close: our close frame, a short wait for the server's, then the socket."""
        if self.sock is None:
            return
        if not self.closed:
            self.send_close(code)
            deadline = time.monotonic() + wait
            try:
                while time.monotonic() < deadline and self.close_code is None:
                    self.poll(0.1)
            except WSClosed:
                pass
        self.drop()

    def drop(self):
        """Closes the socket now (FIN), without a close frame."""
        self.closed = True
        sock, self.sock = self.sock, None
        if sock is not None:
            try:
                sock.close()
            except OSError:
                pass

    def abort(self):
        """Closes the socket with a TCP reset."""
        self.closed = True
        sock, self.sock = self.sock, None
        if sock is not None:
            abort_socket(sock)


def fileno_of(client):
    try:
        return client.sock.fileno() if client.sock else -1
    except OSError:
        return -1
