"""goald processes (start, kill -9, restart, stop), their tokens, /healthz, open files and RSS; PostgreSQL helpers.

Every daemon is started in its own session (so a Ctrl-C in the terminal reaches only the harness, which then
stops them) and is always killed by `Cluster.close()`.
"""
import http.client
import json
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import threading
import time
import urllib.parse

import soak_ws


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def signal_name(returncode):
    if returncode is None:
        return "running"
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit {returncode}"


def tail(path, lines=40):
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - 64 * 1024))
            text = handle.read().decode(errors="replace")
        return "\n".join(text.splitlines()[-lines:])
    except OSError as error:
        return f"(no log: {error})"


CRASH_MARKERS = ("Fatal", "*** Program crashed", "Simultaneous accesses", "Fatal error", "slow_consumer",
                 "Crash", "precondition", "assertion")


def crash_summary(path, limit=12):
    """The lines of a log that say why a process died (the runtime's message, the last session closes), in order."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - 1024 * 1024))
            lines = handle.read().decode(errors="replace").splitlines()
    except OSError:
        return []
    picked = []
    for line in lines:
        text = line.strip()
        if text.startswith(("r1", "r8", "r9", "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "rip")):
            continue  # register dumps (their hex columns may spell "Fatal")
        if any(marker in text for marker in CRASH_MARKERS):
            picked.append(text[:300])
    return picked[-limit:]


def clean_environment(extra=None):
    """The harness's environment without any GOALD_* setting (a caller's GOALD_PORT must not reach the daemons)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GOALD_")}
    env.update(extra or {})
    return env


class Node:
    """One goald: a state directory, a port kept across restarts, one log file per incarnation."""

    def __init__(self, index, goald, workdir, store_url, log_level, threads, extra_sets):
        self.index = index
        self.name = f"node-{index}"
        self.goald = goald
        self.dir = os.path.join(workdir, self.name)
        self.state_dir = os.path.join(self.dir, "state")
        self.store_url = store_url
        self.log_level = log_level
        self.threads = threads
        self.extra_sets = extra_sets
        self.port = None
        self.proc = None
        self.incarnation = 0
        self.log_path = None
        self.expected_exit = False
        self.context = None
        self.baseline_fds = None
        self.started_at = None
        os.makedirs(self.dir, exist_ok=True)

    def environment(self):
        return clean_environment({"GOALD_STORE_URL": self.store_url} if self.store_url else None)

    def command(self):
        args = [self.goald, "serve", "--state-dir", self.state_dir, "--port", str(self.port),
                "--log-level", self.log_level, "--set", f"nodeId={self.name}"]
        if self.threads:
            args += ["--set", f"eventLoopThreads={self.threads}"]
        for item in self.extra_sets:
            args += ["--set", item]
        return args

    def start(self, timeout=90.0):
        """Starts (or restarts, on the same port) and waits for /healthz. Retries on a port collision."""
        first_start = self.incarnation == 0
        for attempt in range(5):
            if self.port is None:
                self.port = free_port()
            self.incarnation += 1
            self.log_path = os.path.join(self.dir, f"goald-{self.incarnation}.log")
            log = open(self.log_path, "wb")
            self.expected_exit = False
            self.proc = subprocess.Popen(self.command(), cwd=self.dir, env=self.environment(), stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            log.close()
            self.started_at = time.time()
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    break
                if self.context is None and os.path.exists(os.path.join(self.state_dir, "tls", "ca.pem")):
                    try:
                        self.context = soak_ws.tls_context(os.path.join(self.state_dir, "tls", "ca.pem"))
                    except (OSError, ssl.SSLError):
                        self.context = None
                if self.context is not None:
                    try:
                        self.healthz(timeout=2.0)
                        return
                    except (OSError, ssl.SSLError, http.client.HTTPException, ValueError):
                        pass
                time.sleep(0.2)
            log_text = tail(self.log_path, 20)
            if self.proc.poll() is None:
                self.kill()
                raise RuntimeError(f"{self.name} did not answer /healthz within {timeout:.0f} s:\n{log_text}")
            if "in use" in log_text:
                if first_start:
                    self.port = None  # someone took the free port first: another one
                else:
                    time.sleep(1.0)  # a restart keeps its port (clients know it): wait for it
                continue
            raise RuntimeError(f"{self.name} exited at start ({signal_name(self.proc.returncode)}):\n{log_text}")
        raise RuntimeError(f"{self.name}: no free port after 5 attempts")

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def healthz(self, timeout=5.0):
        connection = http.client.HTTPSConnection("127.0.0.1", self.port, context=self.context, timeout=timeout)
        try:
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                raise ValueError(f"/healthz answered {response.status}")
            return json.loads(body)
        finally:
            connection.close()

    def kill9(self):
        """kill -9 that the harness expects (not a crash)."""
        if self.alive():
            self.expected_exit = True
            os.kill(self.proc.pid, signal.SIGKILL)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.expected_exit = True
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass

    def stop(self, timeout=20.0):
        """SIGTERM (graceful), then SIGKILL after `timeout`."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.expected_exit = True
        try:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=timeout)
        except (subprocess.TimeoutExpired, OSError):
            self.kill()

    def fd_count(self):
        try:
            return len(os.listdir(f"/proc/{self.proc.pid}/fd"))
        except (OSError, AttributeError):
            return None

    def _fd_targets(self):
        targets = []
        try:
            for fd in os.listdir(f"/proc/{self.proc.pid}/fd"):
                try:
                    targets.append(os.readlink(f"/proc/{self.proc.pid}/fd/{fd}"))
                except OSError:
                    pass
        except (OSError, AttributeError):
            return None
        return targets

    def _client_inodes(self):
        """Inodes of TCP sockets on this node's port other than the listener: client connections, any state."""
        inodes = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                with open(table) as handle:
                    rows = handle.readlines()[1:]
            except OSError:
                continue
            for row in rows:
                fields = row.split()
                local_port = int(fields[1].rsplit(":", 1)[1], 16)
                if local_port == self.port and fields[3] != "0A":  # 0A = LISTEN
                    inodes.add(fields[9])
        return inodes

    def fd_breakdown(self):
        """(open files, how many of them are client connections)."""
        targets = self._fd_targets()
        if targets is None:
            return None, 0
        inodes = self._client_inodes()
        clients = sum(1 for t in targets if t.startswith("socket:[") and t[8:-1] in inodes)
        return len(targets), clients

    def note_baseline(self):
        """The open files of this incarnation without its client connections (a restarted node may already have
        clients back when this is taken). Kept with the kinds of files, to name what is extra at the end."""
        targets = self._fd_targets() or []
        inodes = self._client_inodes()
        own = [t for t in targets if not (t.startswith("socket:[") and t[8:-1] in inodes)]
        self.baseline_fds = len(own)
        self.baseline_kinds = self._kinds(own)

    @staticmethod
    def _kinds(targets):
        kinds = {}
        for target in targets:
            kind = "socket" if target.startswith("socket:") else ("anon:" + target[10:].strip("[]") if target.startswith(
                "anon_inode:") else target)
            kinds[kind] = kinds.get(kind, 0) + 1
        return kinds

    def fd_diff(self):
        """What is open now beyond the baseline, by kind (sockets, event fds, file paths)."""
        now = self._kinds(self._fd_targets() or [])
        before = getattr(self, "baseline_kinds", {})
        return {kind: count - before.get(kind, 0) for kind, count in now.items() if count > before.get(kind, 0)}

    def rss_kib(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except (OSError, AttributeError, ValueError):
            return None
        return None

    def cpu_seconds(self):
        try:
            with open(f"/proc/{self.proc.pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, AttributeError, ValueError, IndexError):
            return None


class Cluster:
    """1 node on SQLite, or N nodes on one PostgreSQL database. Watches for exits the harness did not cause."""

    def __init__(self, goald, workdir, nodes, store_url, log_level, extra_sets):
        threads = 1 if nodes > 1 else 0  # nodes sharing 2 cores share them (README: eventLoopThreads)
        self.nodes = [Node(i + 1, goald, workdir, store_url, log_level, threads, extra_sets) for i in range(nodes)]
        self.goald = goald
        self.store_url = store_url
        self.crashes = []  # dicts: node, incarnation, status, log, at
        self.lock = threading.Lock()
        self.stop_watch = threading.Event()
        self.watcher = None
        self.admin_token = None
        self.phase = "setup"

    def start(self):
        for node in self.nodes:
            node.start()
        with open(os.path.join(self.nodes[0].state_dir, "admin-token")) as handle:
            self.admin_token = handle.read().strip()
        self.watcher = threading.Thread(target=self._watch, name="exit-watcher", daemon=True)
        self.watcher.start()

    def _watch(self):
        seen = set()
        while not self.stop_watch.wait(0.25):
            for node in self.nodes:
                proc = node.proc
                if proc is None or proc.poll() is None:
                    continue
                key = (node.index, node.incarnation)
                if key in seen:
                    continue
                seen.add(key)
                if node.expected_exit:
                    continue
                time.sleep(0.2)  # let the log be flushed
                crash = {"node": node.name, "incarnation": node.incarnation, "pid": proc.pid,
                         "status": signal_name(proc.returncode), "returncode": proc.returncode,
                         "phase": self.phase, "at": time.time(), "log": node.log_path,
                         "log_tail": tail(node.log_path, 40), "summary": crash_summary(node.log_path)}
                with self.lock:
                    self.crashes.append(crash)
                print(f"soak: !!! {node.name} (pid {proc.pid}) died unexpectedly: {crash['status']} during "
                      f"{self.phase}; log {node.log_path}; what it says:", flush=True)
                for line in crash["summary"] or crash["log_tail"].splitlines()[-15:]:
                    print(f"soak:     | {line}", flush=True)

    def dying(self):
        """Nodes still running whose log already says they crashed (the runtime backtraces for ~10 s first)."""
        found = []
        for node in self.nodes:
            if node.alive() and any(marker in line for line in tail(node.log_path, 400).splitlines()
                                    for marker in ("*** Program crashed", "Fatal access conflict", "Fatal error")):
                found.append(node)
        return found

    def await_dying(self, timeout=40.0):
        """Waits until nodes that are crashing have exited (and so are recorded by the watcher)."""
        deadline = time.monotonic() + timeout
        while self.dying() and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(0.6)  # the watcher polls every 0.25 s

    def crash_count(self):
        with self.lock:
            return len(self.crashes)

    def revive_crashed(self):
        """Restarts nodes that died unexpectedly, so the run goes on (each crash stays recorded)."""
        revived = []
        for node in self.nodes:
            if node.proc is not None and node.proc.poll() is not None and not node.expected_exit:
                try:
                    node.start()
                    revived.append(node.name)
                except RuntimeError as error:
                    print(f"soak: could not restart {node.name}: {error}", flush=True)
        return revived

    def token(self, name, role, leagues=None):
        """A new token: of every league with `role`, or confined to `leagues` (["soak-b=editor", …])."""
        env = clean_environment({"GOALD_STORE_URL": self.store_url} if self.store_url else None)
        command = [self.goald, "token", "create", "--state-dir", self.nodes[0].state_dir, "--name", name,
                   "--role", role]
        for grant in leagues or []:
            command += ["--league", grant]
        out = subprocess.run(command, cwd=self.nodes[0].dir, env=env, capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            raise RuntimeError(f"goald token create {name}: {out.stderr.strip() or out.stdout.strip()}")
        return out.stdout.strip().splitlines()[-1].strip()

    def create_league(self, slug, name):
        """`goald league create SLUG --name NAME` on node 1's store (the shared database with PostgreSQL), while
        the daemons run."""
        env = clean_environment({"GOALD_STORE_URL": self.store_url} if self.store_url else None)
        out = subprocess.run([self.goald, "league", "create", "--state-dir", self.nodes[0].state_dir, slug,
                              "--name", name], cwd=self.nodes[0].dir, env=env, capture_output=True, text=True,
                             timeout=60)
        if out.returncode != 0:
            raise RuntimeError(f"goald league create {slug}: {out.stderr.strip() or out.stdout.strip()}")

    def revoke(self, name):
        env = clean_environment({"GOALD_STORE_URL": self.store_url} if self.store_url else None)
        out = subprocess.run([self.goald, "token", "revoke", "--state-dir", self.nodes[0].state_dir, name],
                             cwd=self.nodes[0].dir, env=env, capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            raise RuntimeError(f"goald token revoke {name}: {out.stderr.strip() or out.stdout.strip()}")

    def close(self):
        self.stop_watch.set()
        for node in self.nodes:
            node.stop(timeout=15.0)
        for node in self.nodes:
            node.kill()


class Postgres:
    """A fresh database for the run on the given server (psql), and an optional server restart (pg_ctl)."""

    def __init__(self, url, pg_dir):
        self.admin_url = url
        self.pg_dir = pg_dir
        self.database = None
        self.url = url
        self.psql = shutil.which("psql") or self._bin("psql")

    @staticmethod
    def _bin(tool):
        found = shutil.which(tool)
        candidates = []
        base = "/usr/lib/postgresql"
        if os.path.isdir(base):
            for version in os.listdir(base):
                path = os.path.join(base, version, "bin", tool)
                if os.access(path, os.X_OK):
                    candidates.append((version, path))
        if candidates:
            candidates.sort(key=lambda item: [int(part) if part.isdigit() else 0 for part in item[0].split(".")])
            return candidates[-1][1]
        return found

    def _run_sql(self, url, sql):
        return subprocess.run([self.psql, url, "-qAt", "-c", sql], capture_output=True, text=True, timeout=60)

    def create_database(self, name):
        if not self.psql:
            print("soak: psql not found: using the database of --postgres-url as it is (it must be empty)",
                  flush=True)
            return self.url
        out = self._run_sql(self.admin_url, f'CREATE DATABASE "{name}"')
        if out.returncode != 0:
            raise RuntimeError(f"cannot create database {name}: {out.stderr.strip()}")
        self.database = name
        parts = urllib.parse.urlsplit(self.admin_url)
        self.url = urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))
        return self.url

    def drop_database(self):
        if self.database and self.psql:
            self._run_sql(self.admin_url, f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            self.database = None

    def restart_plan(self):
        """(command, cwd) for `pg_ctl restart` as the data directory's owner, or (None, why not)."""
        if not self.pg_dir:
            return None, "GOALD_PG_DIR is not set (start PostgreSQL with .ci/postgres.sh goald_pg_start, or --pg-dir)"
        data = os.path.join(self.pg_dir, "data")
        if not os.path.isfile(os.path.join(data, "postmaster.pid")):
            return None, f"{data} is not a running cluster's data directory"
        pg_ctl = self._bin("pg_ctl")
        if not pg_ctl:
            return None, "pg_ctl not found"
        command = [pg_ctl, "-D", data, "-w", "-t", "60", "-m", "fast", "-l", os.path.join(self.pg_dir, "postgres.log"),
                   "restart"]
        owner = pwd.getpwuid(os.stat(data).st_uid).pw_name
        if os.getuid() == 0 and owner != "root":
            command = ["runuser", "-u", owner, "--"] + command
        elif os.getuid() != os.stat(data).st_uid:
            return None, f"{data} belongs to {owner}, and the harness is neither root nor {owner}"
        return command, "/"

    def restart(self):
        command, cwd = self.restart_plan()
        if command is None:
            raise RuntimeError(cwd)
        out = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise RuntimeError(f"pg_ctl restart failed: {out.stderr.strip() or out.stdout.strip()}")
