#!/usr/bin/env python3
"""Consistency check of the corpus (no LLVM, no PoCL needed; needs PyYAML for the notes).

For every [[run]] in runs.toml and both wave sizes:
  * gfx1100-w32/OBJECT.hsaco, gfx1100-w64/OBJECT.hsaco, .objdump and .notes exist;
  * the kernel is in the code object's metadata (NAME.notes) with the run's wave size;
  * the explicit arguments match the run's argument list in count and kind
    (scalar size / global pointer / __local pointer);
  * the work-group size fits .max_flat_workgroup_size and any reqd_workgroup_size;
  * every buf: input and every expect file exists, expected files have the size of their buffer.
Also reports kernels found in code objects that no run uses.

Usage: python3 corpus/check.py
"""
import os
import sys
import tomllib

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SCALAR_SIZE = {"u8": 1, "i8": 1, "u16": 2, "i16": 2, "f16": 2, "u32": 4, "i32": 4, "f32": 4,
               "u64": 8, "i64": 8, "f64": 8}


class _Loader(yaml.SafeLoader):
    pass


# LLVM tags some metadata strings (e.g. an argument called "n") with a local !str tag
_Loader.add_constructor("!str", lambda loader, node: loader.construct_scalar(node))


def load_notes(path):
    text = open(path).read()
    y = text[text.index("---"):]
    y = y[:y.index("\n...")]
    return {k[".name"]: k for k in yaml.load(y, Loader=_Loader)["amdhsa.kernels"]}


def main():
    runs = tomllib.load(open(os.path.join(HERE, "runs.toml"), "rb"))["run"]
    errors = []
    used = set()
    notes_cache = {}
    for run in runs:
        name = run["name"]
        for w in (32, 64):
            d = os.path.join(HERE, "gfx1100-w%d" % w)
            for ext in ("hsaco", "objdump", "notes"):
                if not os.path.exists(os.path.join(d, "%s.%s" % (run["object"], ext))):
                    errors.append("%s: missing %s/%s.%s" % (name, d, run["object"], ext))
            npath = os.path.join(d, run["object"] + ".notes")
            if not os.path.exists(npath):
                continue
            if npath not in notes_cache:
                notes_cache[npath] = load_notes(npath)
            kernels = notes_cache[npath]
            k = kernels.get(run["kernel"])
            if k is None:
                errors.append("%s: kernel %s not in %s" % (name, run["kernel"], npath))
                continue
            used.add((run["object"], run["kernel"]))
            if k[".wavefront_size"] != w:
                errors.append("%s: %s has wavefront_size %s" % (name, npath, k[".wavefront_size"]))
            explicit = [a for a in k[".args"] if not a[".value_kind"].startswith("hidden_")]
            if len(explicit) != len(run["args"]):
                errors.append("%s: %d args in runs.toml, %d in metadata" % (name, len(run["args"]), len(explicit)))
                continue
            for i, (spec, meta) in enumerate(zip(run["args"], explicit)):
                kind, _, val = spec.partition(":")
                vk = meta[".value_kind"]
                if kind in SCALAR_SIZE:
                    ok = vk == "by_value" and meta[".size"] == SCALAR_SIZE[kind]
                elif kind in ("buf", "zeros"):
                    ok = vk == "global_buffer"
                elif kind == "local":
                    ok = vk == "dynamic_shared_pointer"
                else:
                    ok = False
                if not ok:
                    errors.append("%s: arg %d %r does not match metadata %s size %s" % (name, i, spec, vk, meta[".size"]))
            wg = 1
            for l in run["local"]:
                wg *= l
            if wg > k[".max_flat_workgroup_size"]:
                errors.append("%s: work-group %d > max_flat_workgroup_size %d" % (name, wg, k[".max_flat_workgroup_size"]))
            req = k.get(".reqd_workgroup_size")
            if req and list(req) != list(run["local"]) + [1] * (3 - len(run["local"])):
                errors.append("%s: local %s != reqd_workgroup_size %s" % (name, run["local"], req))
        sizes = {}
        for i, spec in enumerate(run["args"]):
            kind, _, val = spec.partition(":")
            if kind == "buf":
                p = os.path.join(HERE, "data", val)
                if not os.path.exists(p):
                    errors.append("%s: missing input %s" % (name, p))
                else:
                    sizes[i] = os.path.getsize(p)
            elif kind == "zeros":
                sizes[i] = int(val)
        for table in ("expect", "expect_w64"):
            for idx, fn in run.get(table, {}).items():
                p = os.path.join(HERE, "data", fn)
                if not os.path.exists(p):
                    errors.append("%s: missing %s" % (name, p))
                elif int(idx) not in sizes:
                    errors.append("%s: %s index %s is not a buffer argument" % (name, table, idx))
                elif os.path.getsize(p) != sizes[int(idx)]:
                    errors.append("%s: %s has %d bytes, buffer %d" % (name, fn, os.path.getsize(p), sizes[int(idx)]))
        for idx in run.get("compare", {}):
            if idx not in run["expect"]:
                errors.append("%s: compare rule for unchecked argument %s" % (name, idx))
    all_kernels = set()
    for npath, kernels in notes_cache.items():
        obj = os.path.basename(npath)[:-len(".notes")]
        all_kernels |= {(obj, k) for k in kernels}
    for d in ("gfx1100-w32", "gfx1100-w64"):
        for f in sorted(os.listdir(os.path.join(HERE, d))):
            if f.endswith(".notes"):
                obj = f[:-len(".notes")]
                for k in load_notes(os.path.join(HERE, d, f)):
                    all_kernels.add((obj, k))
    unused = sorted(all_kernels - used)
    print("%d runs checked; %d kernels in code objects, %d used by runs" % (len(runs), len(all_kernels), len(used)))
    for o, k in unused:
        print("  kernel without a run: %s/%s" % (o, k))
    for e in errors:
        print("ERROR " + e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
