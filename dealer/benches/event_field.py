"""What the event benches (event_day.py, event_soak.py, event_luck_cost.py) share: a free
loopback port, the field of an event's config (SDK player processes started on their own
ports, and house bots), a process's resident memory, and stopping what a bench started and
removing its work folder."""
import os
import signal
import socket
import subprocess


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_field(player, sdk_players, bots, bot_kinds, children):
    """Starts `sdk_players` processes of the `player` binary (one worker each, on 127.0.0.1),
    appends them to `children` for the caller to stop, and returns the config lines that enter
    them as `sdk1`, `sdk2`... and `bots` house bots `bot1`, `bot2`... of `bot_kinds` in turn."""
    config = []
    for index in range(sdk_players):
        port = free_port()
        env = dict(os.environ, PORT=str(port), PLAYER_HOST="127.0.0.1",
                   PLAYER_WORKERS="1", RUST_LOG="warn")
        children.append(subprocess.Popen([player], env=env, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL))
        config += ["[[player]]", f'name = "sdk{index + 1}"', f'url = "http://127.0.0.1:{port}/"']
    for index in range(bots):
        config += ["[[bot]]", f'name = "bot{index + 1}"',
                   f'kind = "{bot_kinds[index % len(bot_kinds)]}"']
    return config


def rss_kib(pid):
    """The process's resident memory (VmRSS), in KiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def stop_children(children):
    """SIGTERM to every child still running, newest first; killed if not gone in 30 s."""
    for child in reversed(children):
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    for child in children:
        try:
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()


def stop_and_remove(children, work, keep_variable):
    """Stops the children and removes the bench's `work` folder, unless the environment
    variable `keep_variable` is set (then the folder is kept and named)."""
    stop_children(children)
    if os.environ.get(keep_variable):
        print(f"  kept {work}")
    else:
        subprocess.run(["rm", "-rf", work], check=False)


def stop_server(server):
    """Ctrl-C to a `dealer serve`, as an organiser stops it; killed if not gone in 60 s."""
    server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
