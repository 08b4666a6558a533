#!/usr/bin/env python3
"""Writes small Chakra execution traces (ET files) for the tests and examples of --pattern=chakra.

One file per rank, PREFIX.<rank>.et: a GlobalMetadata, then the nodes, each message preceded by
its length as a varint, as Chakra's own tools write them. The messages come from the module's
schema helper/chakra-et-def.proto, compiled with protoc (Debian: protobuf-compiler) into a
temporary directory and loaded with Debian's python3-protobuf.

Workloads:
  allreduce  one all-reduce of --bytes among all ranks (no process group)
  dp         data parallel: --iterations x (forward of --layers layers, then backward; the
             gradients of each layer all-reduced as soon as its backward is done, overlapping
             the backward of the layers below; the next forward of a layer waits for its
             all-reduce)
  moe        a mixture-of-experts layer: attention, an all-to-all dispatch among the ranks of
             an expert-parallel group (--ep ranks; groups ep0, ep1, ... declared in a
             process_group:init node), the experts, an all-to-all combine, the backward, then
             an all-reduce of the dense gradients among all ranks (group "dp")
  p2p        a pipeline: --iterations micro-batches, rank r receiving each from rank r-1 (tag
             = micro-batch), computing, and sending it to rank r+1

--bad writes a broken trace for the tests of the reader's refusals: unknown-type (a node of
rank 1 with node type 42), truncated (rank 0's file cut inside its last message), cycle (rank
0's first node depending on its last), missing-dep (a dependency on node 999999).

Usage: utils/chakra-generate.py --out DIR/NAME --workload dp [--ranks 4] [--layers 3] ...
"""

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.normpath(os.path.join(HERE, "..", "helper", "chakra-et-def.proto"))


def load_schema():
    """Compiles the schema with protoc and returns the generated module."""
    schema_dir = os.path.dirname(SCHEMA)
    with tempfile.TemporaryDirectory(prefix="chakra-schema-") as tmp:
        try:
            subprocess.run(["protoc", "--python_out=" + tmp, "-I" + schema_dir, SCHEMA],
                           check=True)
        except FileNotFoundError:
            sys.exit("chakra-generate.py: error: protoc not found (Debian: protobuf-compiler)")
        except subprocess.CalledProcessError:
            sys.exit("chakra-generate.py: error: protoc could not compile " + SCHEMA)
        # protoc names the module after the file, '-' becoming '_'.
        path = os.path.join(tmp, "chakra_et_def_pb2.py")
        spec = importlib.util.spec_from_file_location("chakra_et_def_pb2", path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except ImportError as e:
            sys.exit("chakra-generate.py: error: %s (Debian: python3-protobuf, for Debian's "
                     "/usr/bin/python3)" % e)
    return module


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


class Rank:
    """The nodes of one rank, with ids from 0 in file order."""

    def __init__(self, pb, rank):
        self.pb, self.rank, self.nodes = pb, rank, []

    def node(self, name, kind, deps=(), ctrl=(), us=0, iteration=0, **attrs):
        n = self.pb.Node()
        n.id = len(self.nodes)
        n.name = name
        n.type = kind
        n.data_deps.extend(d for d in deps if d is not None)
        n.ctrl_deps.extend(c for c in ctrl if c is not None)
        n.duration_micros = us
        attr = n.attr.add(name="is_cpu_op")
        attr.bool_val = False
        if iteration:
            n.attr.add(name="iteration").int64_val = iteration
        for key, value in attrs.items():
            a = n.attr.add(name=key)
            if isinstance(value, str):
                a.string_val = value
            elif key in ("comm_src", "comm_dst", "comm_tag"):
                a.int32_val = value
            else:
                a.int64_val = value
        self.nodes.append(n)
        return n.id

    def comp(self, name, us, deps=(), ctrl=(), iteration=0):
        return self.node(name, self.pb.COMP_NODE, deps, ctrl, us, iteration)

    def coll(self, name, comm_type, size, deps=(), iteration=0, group=None):
        attrs = {"comm_type": comm_type, "comm_size": size}
        if group is not None:
            attrs["pg_name"] = group
        return self.node(name, self.pb.COMM_COLL_NODE, deps, (), 0, iteration, **attrs)

    def groups(self, groups):
        """A process_group:init metadata node declaring the groups, as PyTorch writes it."""
        text = ", ".join('{"pg_name": "%s", "ranks": [%s]}' % (g, ", ".join(map(str, r)))
                         for g, r in groups.items())
        nid = self.node("process_group:init", self.pb.METADATA_NODE)
        self.nodes[nid].inputs.values = "[" + text + "]"
        return nid


def allreduce(pb, args, r):
    r.coll("allreduce", pb.ALL_REDUCE, args.bytes)


def data_parallel(pb, args, r):
    reduced = [None] * args.layers
    for it in range(args.iterations):
        prev = None
        for layer in range(args.layers):
            prev = r.comp("forward.%d.layer%d" % (it, layer), args.compute_us,
                          deps=[reduced[layer]], ctrl=[prev], iteration=it)
        for layer in reversed(range(args.layers)):
            prev = r.comp("backward.%d.layer%d" % (it, layer), 2 * args.compute_us,
                          ctrl=[prev], iteration=it)
            reduced[layer] = r.coll("allreduce.%d.layer%d" % (it, layer), pb.ALL_REDUCE,
                                    args.bytes, deps=[prev], iteration=it)


def mixture_of_experts(pb, args, r):
    if args.ranks % args.ep:
        sys.exit("chakra-generate.py: error: --ep %d does not divide --ranks %d"
                 % (args.ep, args.ranks))
    groups = {"ep%d" % g: list(range(g * args.ep, (g + 1) * args.ep))
              for g in range(args.ranks // args.ep)}
    groups["dp"] = list(range(args.ranks))
    r.groups(groups)
    ep = "ep%d" % (r.rank // args.ep)
    reduced = None
    for it in range(args.iterations):
        attn = r.comp("attention.%d" % it, args.compute_us, deps=[reduced], iteration=it)
        dispatch = r.coll("dispatch.%d" % it, pb.ALL_TO_ALL, args.bytes, deps=[attn],
                          iteration=it, group=ep)
        expert = r.comp("experts.%d" % it, 2 * args.compute_us, deps=[dispatch], iteration=it)
        combine = r.coll("combine.%d" % it, pb.ALL_TO_ALL, args.bytes, deps=[expert],
                         iteration=it, group=ep)
        back = r.comp("backward.%d" % it, 3 * args.compute_us, deps=[combine], iteration=it)
        reduced = r.coll("allreduce.%d" % it, pb.ALL_REDUCE, args.bytes, deps=[back],
                         iteration=it, group="dp")


def pipeline(pb, args, r):
    prev = None
    for m in range(args.iterations):
        recv = None
        if r.rank > 0:
            recv = r.node("recv.%d" % m, pb.COMM_RECV_NODE, iteration=m, comm_src=r.rank - 1,
                          comm_tag=m, comm_size=args.bytes)
        prev = r.comp("stage.%d" % m, args.compute_us, deps=[recv], ctrl=[prev], iteration=m)
        if r.rank < args.ranks - 1:
            r.node("send.%d" % m, pb.COMM_SEND_NODE, deps=[prev], iteration=m,
                   comm_dst=r.rank + 1, comm_tag=m, comm_size=args.bytes)


WORKLOADS = {"allreduce": allreduce, "dp": data_parallel, "moe": mixture_of_experts,
             "p2p": pipeline}


def break_trace(args, ranks):
    """Applies --bad to the ranks' nodes (all but truncated, which cuts the written file)."""
    if args.bad == "unknown-type":
        ranks[1].nodes[min(1, len(ranks[1].nodes) - 1)].type = 42
    elif args.bad == "cycle":
        ranks[0].nodes[0].ctrl_deps.append(ranks[0].nodes[-1].id)
    elif args.bad == "missing-dep":
        ranks[0].nodes[-1].data_deps.append(999999)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, help="file prefix: writes OUT.<rank>.et")
    p.add_argument("--workload", choices=sorted(WORKLOADS), default="dp")
    p.add_argument("--ranks", type=int, default=4)
    p.add_argument("--bytes", type=int, default=1 << 20, help="bytes of each communication")
    p.add_argument("--layers", type=int, default=3)
    p.add_argument("--iterations", type=int, default=2)
    p.add_argument("--compute-us", type=int, default=10, help="duration of a forward step")
    p.add_argument("--ep", type=int, default=2, help="moe: ranks of an expert-parallel group")
    p.add_argument("--bad", choices=["unknown-type", "truncated", "cycle", "missing-dep"])
    args = p.parse_args()
    if args.ranks < 2 or args.bytes < 1 or args.layers < 1 or args.iterations < 1:
        sys.exit("chakra-generate.py: error: --ranks must be >= 2 and --bytes, --layers and "
                 "--iterations >= 1")
    pb = load_schema()
    ranks = []
    for rank in range(args.ranks):
        r = Rank(pb, rank)
        WORKLOADS[args.workload](pb, args, r)
        ranks.append(r)
    break_trace(args, ranks)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    nodes = 0
    for r in ranks:
        meta = pb.GlobalMetadata(version="0.0.4")
        meta.attr.add(name="schema").string_val = "reps-chakra-generate:" + args.workload
        data = bytearray()
        for message in [meta] + r.nodes:
            body = message.SerializeToString()
            data += varint(len(body)) + body
        if args.bad == "truncated" and r.rank == 0:
            data = data[:-3]
        with open("%s.%d.et" % (args.out, r.rank), "wb") as f:
            f.write(data)
        nodes += len(r.nodes)
    print("wrote %s.0.et to %s.%d.et: %s, %d ranks, %d nodes"
          % (args.out, args.out, args.ranks - 1, args.workload, args.ranks, nodes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
