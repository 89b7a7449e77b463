"""A webhook receiver for the benches: HTTP/1.1 with keep-alive on loopback, answering 204 to every
POST as soon as its body is read, counting what it got. Prints its port, then runs until killed;
on SIGTERM it prints how many requests it got.
Usage: python3 bench/webhook_receiver.py"""

import asyncio
import signal
import socket
import sys

received = 0


async def handle(reader, writer):
    global received
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:].strip())
            if length:
                await reader.readexactly(length)
            received += 1
            writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def main():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    server = await asyncio.start_server(handle, sock=listener)
    print(listener.getsockname()[1], flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with server:
        await stop.wait()
    print(f"received {received}", file=sys.stderr, flush=True)


asyncio.run(main())
