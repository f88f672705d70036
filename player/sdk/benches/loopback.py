"""What the SDK's Python benches (latency.py, startup.py) share: a free loopback port and one
form POST on a fresh connection, read to its end."""
import socket


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(port, body):
    """One `application/x-www-form-urlencoded` POST to 127.0.0.1:`port` on a fresh connection
    (`Connection: close`): the whole answer, head and body, as bytes."""
    data = body.encode()
    head = (f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(data)}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nConnection: close\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        s.sendall(head + data)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return answer
