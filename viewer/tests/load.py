#!/usr/bin/env python3
"""Measures `ossuary view` under hostile clients and folders (RELIABILITY.md,
"The viewer under load"); only 127.0.0.1 traffic, each mode stops by itself.

usage: python3 viewer/tests/load.py OSSUARY_BINARY MODE [ARG]
  load [SECONDS]  70 connections trickling a byte every 5 s and 200 idle
                  ones (reopened when closed), a normal /api/list each second
  deep DEPTH      /api/list of a folder DEPTH folders deep
  fifo            70 /api/list of a folder holding a named pipe
  host            /api/list with Host headers of other names
  bomb [TARGET]   one, then three concurrent /api/gltf of a character whose
                  texture is a 510 KB PNG of 512 MiB; the server's peak memory
  cache CORPUS [COUNT]
                  COUNT (2000) distinct /api/gltf of the corpus's characters
                  (the Twi'lek by blend weight, the others by an unused
                  parameter), four clients at once; the server's memory
                  (resident and peak) every 250 answers
"""
import os, socket, subprocess, sys, tempfile, threading, time, zlib, struct, shutil

binary, mode = sys.argv[1], sys.argv[2]
FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "fixtures")

def start(folder):
    proc = subprocess.Popen([binary, "view", folder, "--port", "0"], stdout=subprocess.PIPE)
    url = proc.stdout.readline().decode().strip()
    host, port = url[len("http://"):].rstrip("/").split(":")
    return proc, (host, int(port))

def get(addr, target, host=None, timeout=200):
    start_t = time.monotonic()
    s = socket.create_connection(addr)
    s.settimeout(timeout)
    h = host or f"{addr[0]}:{addr[1]}"
    s.sendall(f"GET {target} HTTP/1.1\r\nHost: {h}\r\n\r\n".encode())
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        return None, time.monotonic() - start_t, b""
    except ConnectionResetError:
        pass
    s.close()
    status = int(data.split(b" ")[1]) if data else 0
    return status, time.monotonic() - start_t, data

if mode == "load":
    # 70 connections trickling a byte every 5 s, then 200 idle ones; any the
    # server closes is opened again at once, as an attacker would.
    proc, addr = start(FIX)
    slow = [socket.create_connection(addr) for _ in range(70)]
    idle = [socket.create_connection(addr) for _ in range(200)]
    stop = threading.Event()
    reopened = [0]
    def closed(s):
        try:
            return s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"" or True
        except BlockingIOError:
            return False
        except OSError:
            return True
    def attack():
        head = b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 100000
        tick = 0
        while not stop.is_set():
            for group in (slow, idle):
                for i, s in enumerate(group):
                    if closed(s):
                        s.close()
                        group[i] = socket.create_connection(addr)
                        reopened[0] += 1
            if tick % 5 == 0:
                for s in slow:
                    try: s.send(head[tick // 5: tick // 5 + 1])
                    except OSError: pass
            tick += 1
            stop.wait(1)
    t = threading.Thread(target=attack); t.start()
    results = []
    end = time.monotonic() + float(sys.argv[3] if len(sys.argv) > 3 else 30)
    while time.monotonic() < end:
        status, took, _ = get(addr, "/api/list", timeout=20)
        results.append((status, took))
        time.sleep(1)
    stop.set(); t.join()
    statuses = {}
    for status, _ in results: statuses[status] = statuses.get(status, 0) + 1
    print(f"{len(results)} requests over the run: statuses {statuses}, slowest {max(t for _, t in results):.3f} s, median {sorted(t for _, t in results)[len(results)//2]:.3f} s; attack connections reopened {reopened[0]} times")
    proc.terminate(); proc.wait()

elif mode == "deep":
    depth = int(sys.argv[3])
    d = tempfile.mkdtemp()
    shutil.copy(f"{FIX}/humanoid.skel", d)
    subprocess.run(["mkdir", "-p", os.path.join(d, *(["d"] * depth))], check=True)
    proc, addr = start(d)
    status, took, data = get(addr, "/api/list")
    print(f"depth {depth}: /api/list {status} in {took:.3f} s, {len(data)} bytes")
    proc.terminate(); proc.wait(); subprocess.run(["rm", "-rf", d])

elif mode == "fifo":
    d = tempfile.mkdtemp()
    shutil.copy(f"{FIX}/humanoid.cmx", d)
    os.mkfifo(os.path.join(d, "pipe.cmx"))
    proc, addr = start(d)
    results = [get(addr, "/api/list", timeout=0.5)[:2] for _ in range(70)]
    statuses = {}
    for status, _ in results: statuses[status] = statuses.get(status, 0) + 1
    print(f"70 listings with a FIFO, each given 0.5 s: statuses {statuses} (None: no answer), slowest answered {max([t for s, t in results if s] or [0]):.3f} s")
    proc.terminate(); proc.wait(); shutil.rmtree(d, ignore_errors=True)

elif mode == "host":
    proc, addr = start(FIX)
    for host in ["attacker.example", f"attacker.example:{addr[1]}", f"localhost:{addr[1]}", f"127.0.0.1:{addr[1]}"]:
        print(host, get(addr, "/api/list", host=host)[0])
    proc.terminate(); proc.wait()

elif mode == "bomb":
    d = tempfile.mkdtemp()
    for name in ["humanoid.cmx", "humanoid.bcf", "xskin-humanoid-L_ARM-ARM.skn"]:
        shutil.copy(f"{FIX}/{name}", d)
    skn = os.path.join(d, "xskin-humanoid-L_ARM-ARM.skn")
    text = open(skn, "rb").read().replace(b"\r\nx\r\n", b"\r\nbomb\r\n", 1)
    open(skn, "wb").write(text)
    os.mkdir(os.path.join(d, "Textures"))
    # 16384 x 8192 RGBA of zeros: 512 MiB decoded from about half a megabyte.
    w, h = 8192, 16384
    comp = zlib.compressobj(9)
    row = b"\0" * (1 + 4 * w)
    idat = b"".join(comp.compress(row) for _ in range(h)) + comp.flush()
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    open(os.path.join(d, "Textures", "bomb.png"), "wb").write(png)
    print(f"PNG {len(png)} bytes")
    proc, addr = start(d)
    target = sys.argv[3] if len(sys.argv) > 3 else "/api/gltf?open=humanoid.cmx&mesh=xskin-humanoid-L_ARM-ARM.skn"
    def hwm():
        for line in open(f"/proc/{proc.pid}/status"):
            if line.startswith("VmHWM"): return int(line.split()[1]) // 1024
    print(f"before: peak {hwm()} MB")
    status, took, data = get(addr, target)
    print(f"one: {status} in {took:.2f} s, {len(data)} bytes, peak {hwm()} MB")
    proc.terminate(); proc.wait()
    proc, addr = start(d)
    out = []
    ts = [threading.Thread(target=lambda: out.append(get(addr, target)[:2])) for _ in range(3)]
    for t in ts: t.start()
    for t in ts: t.join()
    print(f"three at once: {out}, peak {hwm()} MB")
    proc.terminate(); proc.wait(); subprocess.run(["rm", "-rf", d])

elif mode == "cache":
    corpus = sys.argv[3]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
    proc, addr = start(corpus)
    def memory():
        fields = {}
        for line in open(f"/proc/{proc.pid}/status"):
            name, _, value = line.partition(":")
            fields[name] = int(value.split()[0]) // 1024 if value.strip().endswith("kB") else 0
        return fields["VmRSS"], fields["VmHWM"]
    def target(index):
        kind = index % 4
        if kind == 0:
            return f"/api/gltf?open=swg/appearance/twk_f.sat&blend=blend_fat={index / count:.6f}"
        return ["", "/api/gltf?open=sims1/adult-skeleton.cmx&tone=med",
                "/api/gltf?open=sims1-prototype/samnud.cmx",
                "/api/gltf?open=swg/appearance/skeleton/all_b.skt&mesh=swg/appearance/mesh/twk_f_head_l0.mgn"][kind] + f"&n={index}"
    sizes = []
    lock = threading.Lock()
    done = [0]
    def client(start_at):
        for index in range(start_at, count, 4):
            status, _, data = get(addr, target(index))
            with lock:
                sizes.append(len(data))
                done[0] += 1
                if done[0] % 250 == 0:
                    rss, peak = memory()
                    print(f"{done[0]} answers ({sum(sizes) >> 20} MiB sent): resident {rss} MB, peak {peak} MB", flush=True)
    ts = [threading.Thread(target=client, args=(k,)) for k in range(4)]
    for t in ts: t.start()
    for t in ts: t.join()
    time.sleep(2)
    rss, peak = memory()
    print(f"idle after {count}: resident {rss} MB, peak {peak} MB")
    proc.terminate(); proc.wait()
