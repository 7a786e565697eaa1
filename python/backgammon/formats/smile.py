"""A decoder of Smile, the binary JSON of the Jackson library, which
BGBlitz's ``.bgf`` files hold (:mod:`backgammon.formats.bgf`).

Written from the public Smile format specification: a ``:)\\n`` header
and a flags byte (shared key names, shared string values, raw binary),
then tokens.  Values: small integers in one byte, zigzag variable-length
integers, floats and doubles in 7-bit groups, ASCII and UTF-8 strings
(short ones by length, long ones ended by 0xFC), references back to
earlier strings and key names, arrays and objects.  Anything else (a
truncated stream, an unknown token, a reference to a string not seen, or
nesting past 500 levels) raises :class:`SmileError` naming the offset.

>>> decode(b":)\\n\\x03\\xfa\\x82abc\\xc2\\x81xy\\xf8\\x23\\x21\\xf9\\xfb")
{'abc': 1, 'xy': [True, None]}
"""
from __future__ import annotations

import struct
from typing import Any, NoReturn

from ..errors import FormatError

__all__ = ["SmileError", "decode"]

_MAX_DEPTH = 500
_SHARED_MAX = 1024


class SmileError(FormatError):
    """Bytes that are not a Smile document."""


class _Decoder:
    def __init__(self, data: bytes):
        if data[:3] != b":)\n" or len(data) < 4:
            raise SmileError("not Smile: the data does not start with ':)\\n' and a flags byte")
        flags = data[3]
        self.data, self.at = data, 4
        self.share_names, self.share_values = bool(flags & 1), bool(flags & 2)
        self.names: list[str] = []
        self.values: list[str] = []

    def fail(self, what: str) -> NoReturn:
        raise SmileError(f"at byte {self.at}: {what}")

    def byte(self) -> int:
        if self.at >= len(self.data):
            self.fail("the data ends inside a value (truncated)")
        b = self.data[self.at]
        self.at += 1
        return b

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            self.fail(f"{n} bytes are needed but the data ends (truncated)")
        out = self.data[self.at:self.at + n]
        self.at += n
        return out

    def text(self, raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return self.fail("a string is not UTF-8")

    def until_end_marker(self) -> bytes:
        end = self.data.find(b"\xfc", self.at)
        if end < 0:
            self.fail("a long string has no end marker 0xFC (truncated)")
        out = self.data[self.at:end]
        self.at = end + 1
        return out

    def vint(self) -> int:
        value, count = 0, 0
        while True:
            b = self.byte()
            count += 1
            if count > 10:
                self.fail("a variable-length integer is longer than 10 bytes")
            if b & 0x80:
                return (value << 6) | (b & 0x3F)
            value = (value << 7) | b

    def zigzag(self) -> int:
        n = self.vint()
        return (n >> 1) ^ -(n & 1)

    def seven_bit(self, count: int, bits: int) -> int:
        value = 0
        for _ in range(count):
            b = self.byte()
            if b & 0x80:
                self.fail("a 7-bit group has its high bit set")
            value = (value << 7) | b
        return value & ((1 << bits) - 1)

    def remember_value(self, s: str, size: int) -> None:
        if self.share_values and size <= 64:
            if len(self.values) >= _SHARED_MAX:
                self.values.clear()
            self.values.append(s)

    def remember_name(self, s: str) -> None:
        if self.share_names:
            if len(self.names) >= _SHARED_MAX:
                self.names.clear()
            self.names.append(s)

    def shared(self, table: list, index: int, what: str) -> str:
        if index >= len(table):
            self.fail(f"a reference to shared {what} {index}, of {len(table)} seen")
        return table[index]

    def value(self, depth: int = 0):
        if depth > _MAX_DEPTH:
            self.fail(f"arrays and objects nested more than {_MAX_DEPTH} deep")
        b = self.byte()
        if b <= 0x1F:
            if b == 0:
                self.fail("token 0x00 is reserved")
            return self.shared(self.values, b - 1, "string")
        if b == 0x20:
            return ""
        if b == 0x21:
            return None
        if b in (0x22, 0x23):
            return b == 0x23
        if b in (0x24, 0x25):
            return self.zigzag()
        if b == 0x26:                       # BigInteger: length, then 7-bit-packed bytes
            n = self.vint()
            if n > 1 << 16:
                self.fail("a big integer longer than 65,536 bytes")
            raw = self.packed(n)
            return int.from_bytes(raw, "big", signed=True)
        if b == 0x28:
            return struct.unpack(">f", self.seven_bit(5, 32).to_bytes(4, "big"))[0]
        if b == 0x29:
            return struct.unpack(">d", self.seven_bit(10, 64).to_bytes(8, "big"))[0]
        if b == 0x2A:                       # BigDecimal: scale, length, bytes
            scale = self.zigzag()
            n = self.vint()
            if n > 1 << 16 or abs(scale) > 1 << 16:
                self.fail("a big decimal too large")
            unscaled = int.from_bytes(self.packed(n), "big", signed=True)
            return unscaled / (10 ** scale) if scale >= 0 else unscaled * 10 ** -scale
        if 0x40 <= b <= 0x7F:               # ASCII, 1-32 and 33-64 bytes
            n = (b & 0x1F) + (1 if b < 0x60 else 33)
            s = self.text(self.take(n))
            self.remember_value(s, n)
            return s
        if 0x80 <= b <= 0xBF:               # UTF-8, 2-33 and 34-65 bytes
            n = (b & 0x1F) + (2 if b < 0xA0 else 34)
            s = self.text(self.take(n))
            self.remember_value(s, n)
            return s
        if 0xC0 <= b <= 0xDF:
            n = b & 0x1F
            return (n >> 1) ^ -(n & 1)
        if b in (0xE0, 0xE4):
            return self.text(self.until_end_marker())
        if b == 0xE8:                       # 7-bit encoded binary
            n = self.vint()
            if n > 1 << 24:
                self.fail("binary data too large")
            return self.packed(n)
        if 0xEC <= b <= 0xEF:
            return self.shared(self.values, ((b & 3) << 8) | self.byte(), "string")
        if b == 0xF8:
            out: list[Any] = []
            while True:
                if self.at < len(self.data) and self.data[self.at] == 0xF9:
                    self.at += 1
                    return out
                out.append(self.value(depth + 1))
        if b == 0xFA:
            obj: dict[str, Any] = {}
            while True:
                key = self.key()
                if key is None:
                    return obj
                obj[key] = self.value(depth + 1)
        if b == 0xFD:
            n = self.vint()
            return self.take(n)
        return self.fail(f"token 0x{b:02X} is not a Smile value")

    def packed(self, n: int) -> bytes:
        """``n`` bytes packed 7 bits to a byte (the last group right-aligned)."""
        groups = (n * 8 + 6) // 7
        value = self.seven_bit(groups, groups * 7)
        extra = groups * 7 - n * 8
        if extra > 0:                   # the last byte holds only the remaining bits
            last = value & 0x7F
            value = ((value >> 7) << (7 - extra)) | last
        return (value & ((1 << (n * 8)) - 1)).to_bytes(n, "big") if n else b""

    def key(self) -> str | None:
        b = self.byte()
        if b == 0xFB:
            return None
        if b == 0x20:
            return ""
        if 0x30 <= b <= 0x33:
            return self.shared(self.names, ((b & 3) << 8) | self.byte(), "key name")
        if b == 0x34:
            s = self.text(self.until_end_marker())
            self.remember_name(s)
            return s
        if 0x40 <= b <= 0x7F:
            return self.shared(self.names, b & 0x3F, "key name")
        if 0x80 <= b <= 0xBF:
            s = self.text(self.take((b & 0x3F) + 1))
            self.remember_name(s)
            return s
        if 0xC0 <= b <= 0xF7:
            s = self.text(self.take((b & 0x3F) + 2))
            self.remember_name(s)
            return s
        return self.fail(f"token 0x{b:02X} is not a Smile key name")


def decode(data: bytes):
    """The JSON value that Smile ``data`` encodes (its first value)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, not {type(data).__name__}")
    d = _Decoder(bytes(data))
    try:
        return d.value()
    except RecursionError:
        raise SmileError("arrays and objects nested too deep") from None
