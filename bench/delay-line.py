#!/usr/bin/env python3
"""A delay line between two TUN devices, for kernels without tc netem (CONFIG_NET_SCH_NETEM).

    delay-line.py <tun-a> <tun-b> <delay-ms>

Creates the two TUN devices (they vanish when this process ends), prints "ready", then copies
every IP packet the kernel sends out of one to the other, each after <delay-ms>: a fixed delay
each way, like `tc qdisc add dev … root netem delay <delay-ms>ms` on both ends, with the
kernel's TCP (slow start, windows, acknowledgements) untouched on both hosts. A line on stdin
with a number sets a new delay; end of stdin ends it. bench/latency.ts moves one device into a
network namespace and gives both an address. Node.js has no ioctl, hence Python (3, stdlib).
"""
import collections
import fcntl
import os
import select
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000


def open_tun(name):
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TUN | IFF_NO_PI))
    return fd


def main():
    a, b = open_tun(sys.argv[1]), open_tun(sys.argv[2])
    delay = float(sys.argv[3]) / 1000
    peer = {a: b, b: a}
    # Packets read from a device, with the time they are due on the other, in arrival order.
    waiting = {a: collections.deque(), b: collections.deque()}
    stdin = sys.stdin.fileno()
    pending_line = b""
    print("ready", flush=True)
    while True:
        due = min((queue[0][0] for queue in waiting.values() if queue), default=None)
        timeout = None if due is None else max(0.0, due - time.monotonic())
        readable, _, _ = select.select([a, b, stdin], [], [], timeout)
        now = time.monotonic()
        for fd in readable:
            if fd == stdin:
                data = os.read(stdin, 4096)
                if not data:
                    return
                pending_line += data
                while b"\n" in pending_line:
                    line, pending_line = pending_line.split(b"\n", 1)
                    delay = float(line) / 1000
                continue
            while True:
                try:
                    packet = os.read(fd, 65536)
                except BlockingIOError:
                    break
                waiting[fd].append((now + delay, packet))
        now = time.monotonic()
        for fd, queue in waiting.items():
            while queue and queue[0][0] <= now:
                try:
                    os.write(peer[fd], queue.popleft()[1])
                except OSError:
                    pass  # a full device queue drops the packet, as a link would; TCP sends it again


if __name__ == "__main__":
    main()
