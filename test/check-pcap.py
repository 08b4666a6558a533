#!/usr/bin/env python3
"""Checks that the module's packet captures decode in tshark to the values the simulation sent.

1. reps-two-host with --pcap and --ascii, lossy, once with selective repeat and once with
   go-back-N: ns-3's ASCII trace of the same run prints every header as the simulation built it
   (Packet::Print). Every packet a host sent, in order, is compared field by field with what
   tshark decodes from that host's capture, with Wireshark's own dissectors (IPv4 ECN and TTL,
   UDP ports, BTH opcode, destination QP, PSN and AckReq) and utils/reps-wireshark.lua (the
   module's BTH bits and its ACK/NACK header: type, reason, duplicate and CE bits, echoed
   entropy, trigger and cumulative PSN, SACK bitmap), and the capture's nanosecond timestamp
   with the trace's. The runs must contain NACKs and non-empty SACK bitmaps.
2. reps-lb-comparison --pcap on a small fabric with an incast and trimming: one file per port of
   --pcapNodes, named PREFIX-<lb>-<node>-<peer>.pcap; the receiver's capture holds trimmed
   packets (reps.trimmed), CE-marked packets and NACKs for them; those trimmed by the leaf's
   port toward the receiver carry the last-hop mark (reps.last_hop), and exactly as many NACKs
   carry the last-hop flag (reps.ack.last_hop).
3. reps-lb-comparison --lb=mrc --pcap over a failed leaf uplink: the MRC selector's path probes
   (opcode 0xC0) and their replies (0xC1) decode with utils/reps-wireshark.lua: the probed
   entropy value is the UDP source port, the BTH's PSN is zero, each sender numbers its probes
   0, 1, 2, ... and stamps them with the simulation time it sent them (never after the frame).
4. reps-lb-comparison --cc=rccc --pcap on a trimming incast: on the receiver's port every data
   packet carries a credit request (reps.credit.target), trimmed ones included; the first ones
   are speculative and later ones not; the PULLs (opcode 0xC2) to each sender carry a credit
   that never goes back, in steps of at most 4 x 4096 bytes (the receiver's own count,
   RcccPullPacer's CreditBytes), except its slow pulls; and every sender asked for credit.

Usage: check-pcap.py EXAMPLES_DIR [TSHARK]
Prints one line per check and "N passed, M failed"; exit status 0 when none failed.
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LUA = os.path.join(HERE, "..", "utils", "reps-wireshark.lua")

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("%s: %s%s" % ("PASS" if ok else "FAIL", name, "" if ok or not detail else ": " + detail))
    return ok


# tshark fields, in this order, and the key each is stored under.
FIELDS = [
    ("frame.time_epoch", "t"), ("ip.src", "src"), ("ip.dsfield.ecn", "ecn"), ("ip.ttl", "ttl"),
    ("udp.srcport", "sport"), ("udp.dstport", "dport"), ("infiniband.bth.opcode", "opcode"),
    ("infiniband.bth.destqp", "dqp"), ("infiniband.bth.psn", "psn"), ("infiniband.bth.a", "A"),
    ("reps.fecn", "F"), ("reps.becn", "B"), ("reps.trimmed", "trimmed"),
    ("reps.ack.type", "type"), ("reps.ack.reason", "reason"), ("reps.ack.duplicate", "dup"),
    ("reps.ack.ce", "ce"), ("reps.ack.ev", "ev"), ("reps.ack.trigger_psn", "trigger"),
    ("reps.ack.cum_psn", "cum"), ("reps.ack.sack", "sack"), ("reps.last_hop", "last_hop"),
    ("reps.ack.last_hop", "ack_last_hop"),
]


def as_int(text):
    text = text.strip()
    if text in ("", None):
        return None
    if text in ("True", "False"):
        return int(text == "True")
    return int(text, 0)


def tshark_frames(tshark, pcap, display_filter=None):
    """Every frame of a capture as a dict of the fields above (integers; t in ns)."""
    cmd = [tshark, "-n", "-X", "lua_script:" + LUA, "-r", pcap, "-T", "fields",
           "-E", "separator=|", "-E", "occurrence=f"]
    if display_filter:
        cmd += ["-Y", display_filter]
    for name, _ in FIELDS:
        cmd += ["-e", name]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError("tshark failed on %s: %s" % (pcap, out.stderr[-500:]))
    frames = []
    for line in out.stdout.splitlines():
        cells = line.split("|")
        frame = {}
        for (name, key), cell in zip(FIELDS, cells):
            if key == "t":
                sec, _, frac = cell.partition(".")
                frame[key] = int(sec) * 10 ** 9 + int((frac + "000000000")[:9])
            elif key == "src":
                frame[key] = cell
            else:
                frame[key] = as_int(cell)
        frames.append(frame)
    return frames


ASCII_BTH = re.compile(r"ns3::RoceBthHeader \(opcode=0x([0-9a-f]+) dqp=(\d+) psn=(\d+)([^)]*)\)")
ASCII_ACK = re.compile(r"ns3::RoceAckHeader \((ACK|NACK)( trimmed| seq-err)?(?: last-hop)? psn=(\d+) cum=(\d+) "
                       r"sack=0x([0-9a-f]+) ev=(\d+)( CE)?( dup)?\)")
ASCII_IP = re.compile(r"ECN (Not-ECT|ECT \(0\)|ECT \(1\)|CE) ttl (\d+) .* (\S+) > (\S+)\) "
                      r"ns3::UdpHeader \(length: \d+ (\d+) > (\d+)\)")
ECN_CODES = {"Not-ECT": 0, "ECT (1)": 1, "ECT (0)": 2, "CE": 3}


def ascii_sent(trace, node):
    """The packets node sent (dequeue events of its device 1), parsed from an ASCII trace."""
    sent = []
    key = "/NodeList/%d/DeviceList/1/" % node
    with open(trace) as f:
        for line in f:
            if not line.startswith("- ") or key not in line:
                continue
            t = float(line.split()[1])
            ip = ASCII_IP.search(line)
            bth = ASCII_BTH.search(line)
            if not ip or not bth:
                raise RuntimeError("cannot parse the trace line: " + line[:300])
            flags = bth.group(4).split()
            p = {"t": round(t * 1e9), "src": ip.group(3), "ecn": ECN_CODES[ip.group(1)],
                 "ttl": int(ip.group(2)), "sport": int(ip.group(5)), "dport": int(ip.group(6)),
                 "opcode": int(bth.group(1), 16), "dqp": int(bth.group(2)),
                 "psn": int(bth.group(3)), "A": int("A" in flags), "F": int("F" in flags),
                 "B": int("B" in flags), "trimmed": int("trimmed" in flags)}
            ack = ASCII_ACK.search(line)
            if ack:
                p.update({"type": int(ack.group(1) == "NACK"),
                          "reason": {None: 0, " trimmed": 1, " seq-err": 2}[ack.group(2)],
                          "trigger": int(ack.group(3)), "cum": int(ack.group(4)),
                          "sack": int(ack.group(5), 16), "ev": int(ack.group(6)),
                          "ce": int(bool(ack.group(7))), "dup": int(bool(ack.group(8)))})
            sent.append(p)
    return sent


def compare_two_host(examples, tshark, tmp, name, extra):
    prefix = os.path.join(tmp, name)
    trace = prefix + ".tr"
    cmd = [os.path.join(examples, "reps-two-host"), "--size=300000", "--messages=2",
           "--dropRate=0.03", "--pcap=" + prefix, "--ascii=" + trace] + extra
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if not check("%s: reps-two-host runs" % name, run.returncode == 0, run.stderr[-300:]):
        return
    stats = {"acks": 0, "nacks": 0, "sacks": 0, "data": 0}
    for node, addr in ((0, "10.0.0.1"), (1, "10.0.0.2")):
        pcap = "%s-%d-1.pcap" % (prefix, node)
        want = ascii_sent(trace, node)
        got = [f for f in tshark_frames(tshark, pcap) if f["src"] == addr]
        if not check("%s: host %d's capture holds the %d packets it sent" % (name, node, len(want)),
                     len(got) == len(want) and len(want) > 0,
                     "capture %d, trace %d" % (len(got), len(want))):
            continue
        bad = []
        for i, (w, g) in enumerate(zip(want, got)):
            diff = {k: (v, g.get(k)) for k, v in w.items() if g.get(k) != v}
            if diff:
                bad.append("packet %d: %s" % (i, diff))
            if "type" in w:
                stats["nacks" if w["type"] else "acks"] += 1
                stats["sacks"] += w["sack"] != 0
            else:
                stats["data"] += 1
        check("%s: host %d: every field tshark decodes equals what the simulation sent"
              % (name, node), not bad, "; ".join(bad[:3]))
    return stats


def check_fabric(examples, tshark, tmp):
    prefix = os.path.join(tmp, "fabric")
    cmd = [os.path.join(examples, "reps-lb-comparison"), "--leaves=2", "--hostsPerLeaf=4",
           "--spines=2", "--pattern=incast", "--incastSenders=6", "--flowSize=256KiB",
           "--queuePackets=8", "--ecnKmin=2", "--ecnKmax=6", "--trim=true", "--lb=reps",
           "--pcap=" + prefix, "--pcapNodes=host0,spine1", "--pcapSnapLen=96", "--quiet"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if not check("reps-lb-comparison --pcap runs", run.returncode == 0, run.stderr[-300:]):
        return
    files = sorted(os.path.basename(f) for f in glob.glob(prefix + "-*.pcap"))
    want = ["fabric-reps-host0-leaf0.pcap", "fabric-reps-spine1-leaf0.pcap",
            "fabric-reps-spine1-leaf1.pcap"]
    check("one file per port of --pcapNodes, named after the link", files == want, str(files))
    frames = tshark_frames(tshark, prefix + "-reps-host0-leaf0.pcap")
    received = [f for f in frames if f["src"] != "10.0.0.1"]
    trimmed = sum(1 for f in received if f["trimmed"])
    ce = sum(1 for f in received if f["ecn"] == 3)
    nacks = sum(1 for f in frames if f["src"] == "10.0.0.1" and f["type"] == 1 and f["reason"] == 1)
    check("the incast receiver's capture shows trimmed packets, CE marks and trim NACKs",
          trimmed > 0 and ce > 0 and nacks >= trimmed,
          "trimmed %d, CE %d, trim NACKs %d" % (trimmed, ce, nacks))
    last_hop = sum(1 for f in received if f["trimmed"] and f["last_hop"])
    last_hop_nacks = sum(1 for f in frames if f["src"] == "10.0.0.1" and f["type"] == 1
                         and f["reason"] == 1 and f["ack_last_hop"])
    check("packets trimmed at the last hop carry the mark, and their NACKs the last-hop flag",
          last_hop > 0 and last_hop_nacks == last_hop,
          "last-hop trimmed %d, last-hop NACKs %d" % (last_hop, last_hop_nacks))


def check_probes(examples, tshark, tmp):
    prefix = os.path.join(tmp, "probes")
    cmd = [os.path.join(examples, "reps-lb-comparison"), "--leaves=4", "--hostsPerLeaf=4",
           "--spines=4", "--flowSize=1MiB", "--lb=mrc", "--failedLinks=1", "--failAt=20us",
           "--RngRun=3", "--quiet", "--pcap=" + prefix]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if not check("reps-lb-comparison --lb=mrc --pcap runs", run.returncode == 0, run.stderr[-300:]):
        return
    probes = replies = 0
    bad = []
    for pcap in sorted(glob.glob(prefix + "-mrc-host*.pcap")):
        cmd = [tshark, "-n", "-X", "lua_script:" + LUA, "-r", pcap, "-Y", "reps.probe.ev",
               "-T", "fields", "-E", "separator=|", "-e", "frame.time_epoch", "-e", "ip.src",
               "-e", "udp.srcport", "-e", "infiniband.bth.opcode", "-e", "infiniband.bth.psn",
               "-e", "reps.probe.reply", "-e", "reps.probe.ev", "-e", "reps.probe.seq",
               "-e", "reps.probe.ts"]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        seqs = {}
        for line in out.stdout.splitlines():
            t, src, sport, opcode, psn, reply, ev, seq, ts = line.split("|")
            sec, _, frac = t.partition(".")
            t_ns = int(sec) * 10 ** 9 + int((frac + "000000000")[:9])
            is_reply = as_int(reply) == 1
            if as_int(ev) != as_int(sport) or as_int(psn) != 0 or \
                    as_int(opcode) != (0xC1 if is_reply else 0xC0) or int(ts) > t_ns:
                bad.append(line)
            if is_reply:
                replies += 1
            else:
                probes += 1
                seqs.setdefault(src, []).append(int(seq))
        for src, numbers in seqs.items():
            if numbers != sorted(numbers) or len(set(numbers)) != len(numbers):
                bad.append("%s numbers its probes %s" % (src, numbers[:10]))
    check("MRC probes and replies decode: EV = source port, PSN 0, numbered, stamped",
          probes > 0 and not bad, "%d probes, %d replies; %s" % (probes, replies, bad[:3]))


def check_credits(examples, tshark, tmp):
    prefix = os.path.join(tmp, "credits")
    cmd = [os.path.join(examples, "reps-lb-comparison"), "--leaves=2", "--hostsPerLeaf=4",
           "--spines=2", "--pattern=incast", "--incastSenders=6", "--flowSize=256KiB",
           "--queuePackets=8", "--ecnKmin=2", "--ecnKmax=6", "--trim=true", "--lb=reps",
           "--cc=rccc", "--pcap=" + prefix, "--pcapNodes=host0", "--quiet"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if not check("reps-lb-comparison --cc=rccc --pcap runs", run.returncode == 0,
                 run.stderr[-300:]):
        return
    pcap = prefix + "-reps-host0-leaf0.pcap"
    cmd = [tshark, "-n", "-X", "lua_script:" + LUA, "-r", pcap, "-T", "fields", "-E",
           "separator=|", "-e", "ip.src", "-e", "ip.dst", "-e", "infiniband.bth.opcode",
           "-e", "reps.credit", "-e", "reps.trimmed", "-e", "reps.credit.target",
           "-e", "reps.credit.speculative", "-e", "reps.pull.credit", "-e", "reps.pull.slow"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    data = trimmed = speculative = later = pulls = 0
    bad = []
    last_pull = {}
    targets = {}
    for line in out.stdout.splitlines():
        src, dst, opcode, credit, trim, target, spec, pull, slow = line.split("|")
        op = as_int(opcode)
        if op is not None and op <= 0x04:
            data += 1
            if as_int(credit) != 1 or target == "":
                bad.append("data without a credit request: " + line)
                continue
            trimmed += 1 if as_int(trim) == 1 else 0
            if as_int(spec) == 1:
                speculative += 1
            else:
                later += 1
            targets[src] = max(targets.get(src, 0), int(target))
        elif op == 0xC2:
            pulls += 1
            value = int(pull)
            step = value - last_pull.get(dst, 0)
            if step < 0 or (step > 16384 and as_int(slow) != 1):
                bad.append("PULL to %s went from %d to %d" % (dst, last_pull.get(dst, 0), value))
            last_pull[dst] = value
    check("RCCC: every data packet carries a credit request, trimmed ones too",
          data > 0 and trimmed > 0 and not bad, "%d data, %d trimmed; %s" % (data, trimmed, bad[:3]))
    check("RCCC: speculative packets first, then packets on granted credit",
          speculative > 0 and later > 0, "%d speculative, %d later" % (speculative, later))
    check("RCCC: PULLs to every sender, cumulative, at most 16384 bytes apart",
          pulls > 0 and len(last_pull) == 6, "%d PULLs to %d senders" % (pulls, len(last_pull)))
    short = [ip for ip, credit in last_pull.items() if targets.get(ip, 0) == 0]
    check("RCCC: each sender asked for credit", not short, str(short))


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    examples = sys.argv[1]
    tshark = sys.argv[2] if len(sys.argv) == 3 else shutil.which("tshark")
    if not tshark:
        print("check-pcap.py: tshark not found (Debian: apt-get install tshark)", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="reps-pcap-")
    try:
        sr = compare_two_host(examples, tshark, tmp, "selective-repeat", [])
        gbn = compare_two_host(examples, tshark, tmp, "go-back-N", ["--goBackN=true"])
        if sr and gbn:
            check("the runs hold ACKs, NACKs and non-empty SACK bitmaps",
                  sr["acks"] > 0 and gbn["nacks"] > 0 and sr["sacks"] > 0,
                  "selective repeat %s, go-back-N %s" % (sr, gbn))
        check_fabric(examples, tshark, tmp)
        check_probes(examples, tshark, tmp)
        check_credits(examples, tshark, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    failed = results.count(False)
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
