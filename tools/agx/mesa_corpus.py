#!/usr/bin/env python3
"""Turn the asahi shaders Mesa 22.3 compiled for shader-db into wavesim jobs with llvmpipe references.

    tools/agx/mesa_corpus.py DUMPS SHADERS OUT [--harness BIN] [--limit N]

DUMPS: the output of `tools/mesa/run_corpus.sh asahi - SHADERS DUMPS` (Mesa 22.3.6 built by
tools/mesa/build.sh and patched by tools/mesa/patch_asahi.py: NNNN.STAGE.{bin,txt,draw.txt}).
SHADERS: shader-db's shaders/ folder. OUT: where the corpus goes (corpus/agx/mesa22).
BIN: tools/agx/mesa_shader_test.c built against the system's libEGL (Debian 12's Mesa 22.3.6, the
same GLSL compiler and linker as the asahi build); it is built into /tmp when not given.

For every vertex shader the driver compiled for a draw, writes OUT/<program>.NNNN.vs.bin (the
binary as uploaded), OUT/<program>.NNNN.vs.toml (a wavesim job: `abi = "mesa-22.3"`, the preamble
and main offsets, the bytes the driver placed for the draw as buffers, each push range's uniform
halves with the addresses in them pointing at those buffers) and OUT/<program>.NNNN.vs.ref (llvmpipe's
outputs for the same three vertices, by transform feedback of the shader's outputs, one line
"V SLOT WORD" per output component, SLOT being the st_var index Mesa 22.3 gave it:
`agx_remap_varyings_vs`, four per output location). OUT/summary.txt says for every shader why it has
no job when it has none.
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
# scratch files of this process (two runs at once must not share them)
TMP = "/tmp/wavesim-corpus-%d" % os.getpid()
# enum agx_push_type (src/asahi/compiler/agx_compile.h, Mesa 22.3): the ones whose uniform halves
# hold 64-bit GPU addresses.
PUSH_POINTER_TYPES = {0: "ubo_bases", 3: "ssbo_bases", 5: "vbo_base", 9: "texture_base"}
PUSH_TYPES = {1: "ubo_sizes", 2: "vbo_sizes", 4: "ssbo_sizes", 6: "constants", 7: "ubo_data",
              8: "blend_const", **PUSH_POINTER_TYPES}


def parse_info(path):
    info = {"push": [], "vs_slot": {}, "outputs": [], "inputs": [], "fs_binding": []}
    in_nir = False
    for line in path.read_text(errors="replace").splitlines():
        if line == "nir_begin":
            in_nir = True
            continue
        if line == "nir_end":
            in_nir = False
            continue
        if in_nir:
            m = re.match(r"decl_var shader_(out|in) (\S+) (\S+) (\S+) \((\w+)(?:\.([xyzw]+))?, ",
                         line)
            if m:
                entry = (m.group(4), m.group(3), m.group(5), m.group(6) or "x", m.group(2))
                info["outputs" if m.group(1) == "out" else "inputs"].append(entry)
            continue
        k, _, rest = line.partition(" ")
        if k == "push":
            info["push"].append(dict(kv.split("=") for kv in rest.split()))
        elif k == "fs_binding":
            info["fs_binding"].append(dict(kv.split("=") for kv in rest.split()))
        elif k == "vs_slot":
            name, idx = rest.split()
            info["vs_slot"][name] = int(idx)
        elif k in ("fs_nr_cf", "fs_reads_z", "reads_tib", "writes_sample_mask"):
            info[k] = int(rest)
        elif k in ("size", "has_preamble", "preamble_offset", "main_offset", "nr_gprs",
                   "nr_preamble_gprs", "push_count", "internal"):
            info[k] = int(rest)
        elif k == "name":
            info[k] = rest
    return info


def parse_draw(path):
    """The first draw's push ranges, memory and descriptor arrays: ([(base, length, addr)],
    {addr: bytes}, {"texture_state": (count, addr), "sampler_state": (count, addr)})."""
    pushes, mem, draws, state = [], {}, 0, {}
    for line in path.read_text().splitlines():
        if line == "draw":
            draws += 1
            if draws > 1:
                break
            continue
        parts = line.split()
        if parts[0] == "push":
            pushes.append((int(parts[1]), int(parts[2]), int(parts[3], 16)))
        elif parts[0] in ("texture_state", "sampler_state"):
            state[parts[0]] = (int(parts[1]), int(parts[2], 16))
        elif parts[0] == "mem":
            addr = int(parts[1], 16)
            data = bytes.fromhex(parts[2]) if len(parts) > 2 else b""
            mem[addr] = max(mem.get(addr, b""), data, key=len)
    return pushes, mem, state


def merge_regions(mem):
    """Overlapping regions become one (their common bytes agree: they are the same memory)."""
    out = []
    for addr in sorted(mem):
        data = mem[addr]
        if out and addr < out[-1][0] + len(out[-1][1]):
            base, old = out[-1]
            end = max(base + len(old), addr + len(data))
            buf = bytearray(end - base)
            buf[:len(old)] = old
            buf[addr - base:addr - base + len(data)] = data
            out[-1] = (base, bytes(buf))
        else:
            out.append((addr, data))
    return out


class Problem(Exception):
    pass


def find_region(regions, addr, size=1):
    for i, (base, data) in enumerate(regions):
        if base <= addr and addr + size <= base + len(data):
            return i, addr - base
    raise Problem(f"address {addr:#x} (+{size}) is in no region the driver recorded")


def toml_words(data):
    pad = data + b"\0" * (-len(data) % 4)
    words = [int.from_bytes(pad[i:i + 4], "little") for i in range(0, len(pad), 4)]
    return "[" + ", ".join(str(w) for w in words) + "]"


def trim(data):
    """Trailing zero bytes beyond the first 16 are cut: buffers are zero-filled (`size`)."""
    end = len(data.rstrip(b"\0"))
    return data[:max(end, 16)]


def build_job(info, pushes, mem, code_name, stage_lines, state=None):
    regions = merge_regions(mem)
    used = {}
    gallium_extra = []
    if state:
        (nt, taddr), (ns, saddr) = state["texture_state"], state["sampler_state"]
        if nt:
            ri, off = find_region(regions, taddr, 24 * nt)
            descs = regions[ri][1][off:off + 24 * nt]
            for i in range(nt):
                d = descs[24 * i:24 * i + 24]
                addr = ((int.from_bytes(d[:16], "little") >> 66) & ((1 << 36) - 1)) << 4
                ti, toff = find_region(regions, addr, 4)
                used[ti] = True
                words = [int.from_bytes(d[4 * j:4 * j + 4], "little") for j in range(6)]
                gallium_extra += ["", "[[gallium.texture]]", f"descriptor = {words}",
                                  f'buffer = "m{regions[ti][0]:x}"', f"offset = {toff}"]
        if ns:
            ri, off = find_region(regions, saddr, 8 * ns)
            sd = regions[ri][1][off:off + 8 * ns]
            pairs = [[int.from_bytes(sd[8 * i + 4 * j:8 * i + 4 * j + 4], "little") for j in range(2)]
                     for i in range(ns)]
            gallium_extra.insert(0, f"sampler = {pairs}")
    uniforms = []  # (slot, kind, value)
    types = {int(p["base"]): p for p in info["push"]}
    for base, length, addr in pushes:
        p = types.get(base)
        if p is None:
            raise Problem(f"push range at half {base} not in the compile-time list")
        ri, off = find_region(regions, addr, 2 * length)
        data = regions[ri][1][off:off + 2 * length]
        t = int(p["type"])
        if t in PUSH_POINTER_TYPES:
            if p["indirect"] != "0":
                raise Problem(f"indirect {PUSH_POINTER_TYPES[t]} push")
            if length % 4:
                raise Problem(f"{PUSH_POINTER_TYPES[t]} push of {length} halves")
            for q in range(length // 4):
                ptr = int.from_bytes(data[8 * q:8 * q + 8], "little")
                ti, toff = find_region(regions, ptr)
                used[ti] = True
                uniforms.append((base + 4 * q, "buffer", (ti, toff)))
        elif t in PUSH_TYPES:
            for h in range(length):
                uniforms.append((base + h, "u16", int.from_bytes(data[2 * h:2 * h + 2], "little")))
        else:
            raise Problem(f"push type {t}")
    lines = [
        "# Mesa 22.3.6's asahi driver compiled this shader from shader-db for the draw of",
        "# tools/agx/mesa_shader_test.c; tools/agx/mesa_corpus.py wrote the job from its dump.",
        stage_lines[0],
        'abi = "mesa-22.3"',
        f'code = "{code_name}"',
        # agx_shader_info counts 16-bit registers (agx_compile.c: nr_gprs = max_reg + 1, the
        # register allocator's units being halves, AGX_NUM_REGS = 256); jobs count 32-bit ones
        f"nr_gprs = {(info['nr_gprs'] + 1) // 2}",
        "",
        "[gallium]",
        f"main_offset = {info['main_offset']}",
    ]
    if info.get("has_preamble"):
        lines += [f"preamble_offset = {info['preamble_offset']}",
                  f"nr_preamble_gprs = {(info['nr_preamble_gprs'] + 1) // 2}"]
    lines += gallium_extra
    lines += [""] + stage_lines[1:] + [""]
    for ri in sorted(used):
        base, data = regions[ri]
        t = trim(data)
        lines += ["[[buffer]]", f'name = "m{base:x}"']
        lines.append(f"u32 = {toml_words(t)}")
        if len(t) < len(data):
            lines.append(f"size = {len(data)}")
        lines.append("")
    for slot, kind, value in uniforms:
        if kind == "buffer":
            ri, off = value
            lines += ["[[uniform]]", f"slot = {slot}", f'buffer = "m{regions[ri][0]:x}"',
                      f"offset = {off}", ""]
        elif value:
            lines += ["[[uniform]]", f"slot = {slot}", f"u16 = {value}", ""]
    return "\n".join(lines)


SLOT_RE = re.compile(r"VARYING_SLOT_(VAR|TEX)(\d+)$")


def slot_name(base, e):
    """The name of location `base` + e (arrays occupy consecutive locations)."""
    if e == 0:
        return base
    m = SLOT_RE.search(base)
    if not m:
        raise Problem(f"array output at {base}")
    return f"VARYING_SLOT_{m.group(1)}{int(m.group(2)) + e}"


def comps_of(ty):
    base = ty.split("[")[0]
    n = {"float": 1, "int": 1, "uint": 1, "vec2": 2, "vec3": 3, "vec4": 4, "ivec2": 2, "ivec3": 3,
         "ivec4": 4, "uvec2": 2, "uvec3": 3, "uvec4": 4}.get(base)
    if n is None:
        raise Problem(f"output type {ty}")
    arr = re.findall(r"\[(\d+)\]", ty)
    return n, int(arr[0]) if arr else 1


def reference(harness, shader_test, info):
    """llvmpipe's values of every output the asahi shader stores: {(vertex, slot): word}.

    The GLSL linker packs varyings: an output named `packed:a,b.x` at VARn.f holds all of `a`
    then `b`'s x from component f on; each piece is captured by its own name."""
    pieces, names = [], []
    for name, ty, loc, frac, _ in info["outputs"]:
        if loc not in info["vs_slot"]:
            continue  # not linked to the fragment shader (Mesa gave it no slot)
        if name.startswith("gl_ClipDist"):
            raise Problem(f"output {name}")
        parts = name[len("packed:"):].split(",") if name.startswith("packed:") else [name]
        n, k = comps_of(ty)
        if k != 1 and len(parts) > 1:
            raise Problem(f"packed array output {name}")
        pieces.append((loc, "xyzw".index(frac[0]), n, k, parts))
        for part in parts:
            # an array element or matrix column (`v_StrMatrix[0].xy`) is captured with its whole
            # variable (transform feedback takes no matrix columns)
            base = part.split(".")[0].split("[")[0]
            if base not in names:
                names.append(base)
    if not names:
        raise Problem("no outputs")
    env = dict(os.environ, EGL_PLATFORM="surfaceless", LIBGL_ALWAYS_SOFTWARE="1",
               GALLIUM_DRIVER="llvmpipe", SHADER_TEST_XFB=",".join(names))
    for k in ("LD_LIBRARY_PATH", "LIBGL_DRIVERS_PATH"):
        env.pop(k, None)
    # the asahi run used the same overrides (tools/mesa/run_corpus.sh)
    env.update(MESA_GL_VERSION_OVERRIDE="3.3COMPAT", MESA_GLSL_VERSION_OVERRIDE="330")
    r = subprocess.run([harness, shader_test], env=env, capture_output=True, text=True, timeout=60)
    captured = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["xfb"]:
            captured[(int(parts[1]), parts[2])] = [int(w, 16) for w in parts[3:]]
    if not captured:
        raise Problem("llvmpipe: " + (r.stderr.strip().splitlines() or ["no output"])[-1][:200])
    declared = source_varyings(vs_source_of(shader_test), "out")

    def piece(v, part):
        """The captured words of one packed piece: a variable, an element of an array (element
        size from its declaration) or a column of a matrix, then the swizzle."""
        var, _, swz = part.partition(".")
        elem = re.fullmatch(r"(\w+)\[(\d+)\]", var)
        got = captured.get((v, elem.group(1) if elem else var))
        if got is None:
            raise Problem(f"llvmpipe captured no {var}")
        if elem:
            ty = declared.get(elem.group(1), ("?",))[0]
            size = TYPE_SIZE.get(ty) or MATRIX_COLUMNS.get(ty, (None, None))[1]
            if size is None:
                raise Problem(f"output {var}: element type {ty}")
            i = int(elem.group(2))
            got = got[i * size:(i + 1) * size]
        return [got["xyzw".index(c)] for c in swz] if swz else got

    ref = {}
    for v in range(3):
        for loc, frac, n, k, parts in pieces:
            words = []
            # Components are assigned in the linker's packing order (gl_nir_link_varyings.c,
            # packing_order_enum: vec4, vec2, scalar, vec3; a stable sort), while the packed name
            # lists the pieces in declaration order.
            order = {0: 0, 2: 1, 1: 2, 3: 3}
            def size_of(part):
                try:
                    return packing_size(declared, part)
                except Problem:  # not a float type or not found: the captured variable's size
                    return len(captured.get((v, part.split(".")[0]), []))
            parts = sorted(parts, key=lambda part: order[size_of(part) % 4])
            for part in parts:
                words += piece(v, part)
            for j, w in enumerate(words):
                e, c = divmod(frac + j, 4) if k == 1 else divmod(j, n)
                if k != 1:
                    c += frac
                ref[(v, info["vs_slot"][slot_name(loc, e)] + c)] = w
    return ref


def slot_number(slot):
    """A number per varying slot, so each (slot, component) gets its own constant."""
    m = re.match(r"VARYING_SLOT_(VAR|TEX|COL)(\d+)$", slot)
    if m:
        return {"VAR": 32, "TEX": 16, "COL": 8}[m.group(1)] + int(m.group(2))
    return {"VARYING_SLOT_FOGC": 4, "VARYING_SLOT_BFC0": 5, "VARYING_SLOT_BFC1": 6}.get(slot, 7)


def constant(slot, comp):
    """The value a fragment input holds at every pixel: a multiple of 1/64 in (0, 1), exact in f32
    and f16, different for each of the first 60 (slot, component) pairs."""
    return ((slot_number(slot) * 4 + comp) % 61 + 1) / 64


# Built-in fragment inputs and what a vertex shader writes to feed them (GLSL 1.20, 7.6).
BUILTIN_FEED = {"VARYING_SLOT_COL0": "gl_FrontColor", "VARYING_SLOT_COL1": "gl_FrontSecondaryColor",
                "VARYING_SLOT_FOGC": "gl_FogFragCoord"}


def glsl_version(source):
    m = re.search(r"^\s*#version\s+(\d+)(.*)$", source, re.M)
    return (int(m.group(1)), m.group(0).strip()) if m else (110, "")


TYPE_SIZE = {"float": 1, "vec2": 2, "vec3": 3, "vec4": 4}
# gl_nir_link_varyings.c, packing_order_enum (vec4, vec2, scalar, vec3), by component count % 4
PACKING_ORDER = {0: 0, 2: 1, 1: 2, 3: 3}
# matN inputs: N columns of vecN (GLSL 4.60, 5.6: m[i] is column i)
MATRIX_COLUMNS = {"mat2": ("vec2", 2), "mat3": ("vec3", 3), "mat4": ("vec4", 4)}


def packing_size(declared, part):
    """The component count that orders a packed piece (gl_nir_link_varyings.c, get_packing_order:
    the slots of the variable's type without its array, so a mat3's column counts 9, a scalar)."""
    var = part.split(".")[0].split("[")[0]
    if var not in declared:
        raise Problem(f"varying {var}: no declaration in the source")
    ty = declared[var][3] if len(declared[var]) > 3 else declared[var][0]
    if ty in MATRIX_COLUMNS:
        return MATRIX_COLUMNS[ty][1] ** 2
    if ty not in TYPE_SIZE:
        raise Problem(f"varying {var}: type {ty}")
    return TYPE_SIZE[ty]


def preprocess(source):
    """The GLSL text after the C preprocessor (GLSL's preprocessor is C's for #define/#if), so
    declarations written through macros (warsow's `qf_varying myhalf4 ...`) read as GLSL."""
    lines = [line for line in source.splitlines()
             if not re.match(r"\s*#\s*(version|extension|pragma|line)\b", line)]
    r = subprocess.run(["cpp", "-P", "-w", "-undef"], input="\n".join(lines), capture_output=True,
                       text=True)
    return r.stdout if r.returncode == 0 else source


def source_varyings(fs_source, storage="in"):
    """{name: (type, qualifiers, elements)} of the shader's `varying`/`in` (or `out`: storage)
    declarations (elements: the array length of `name[N]`, None for a variable that is not an
    array)."""
    fs_source = preprocess(fs_source)
    out = {}
    decl = re.compile(r"^\s*((?:(?:flat|smooth|noperspective|centroid)\s+)*)(?:varying|"
                      + storage + r")\s+"
                      r"(?:(?:lowp|mediump|highp)\s+)?(\w+)\s+([^;]+);", re.M)
    for m in decl.finditer(fs_source):
        for name in m.group(3).split(","):
            arr = re.fullmatch(r"\s*(\w+)\s*\[\s*(\d+)\s*\]\s*", name)
            if arr:
                out[arr.group(1)] = (m.group(2), m.group(1).strip(), int(arr.group(2)))
            else:
                out[name.strip()] = (m.group(2), m.group(1).strip(), None)
    return out


def fragment_feed(info, fs_source):
    """A vertex shader holding every input of the fragment shader constant (the values of
    `constant` for the slot and component the input lands on), with gl_Position covering the 16x16
    target at z = 0, w = 1, and the coefficient planes [0, 0, value] the wavesim job gives for the
    same inputs. Packed inputs (`packed:a,b.x`) are laid out as the GLSL linker packs them: pieces
    in packing order (vec4, vec2, scalar, vec3; stable), components consecutive from the slot's
    first component."""
    version, line = glsl_version(fs_source)
    core = version >= 140
    declared = source_varyings(fs_source)
    values = {}  # variable -> {component: value}
    body = []
    for name, ty, loc, frac, interp in info["inputs"]:
        if loc == "VARYING_SLOT_POS":
            continue  # gl_FragCoord: the pixel and the Z/W planes below
        n, k = comps_of(ty)
        f = "xyzw".index(frac[0])
        if loc in BUILTIN_FEED or loc.startswith("VARYING_SLOT_TEX"):
            if k != 1:
                raise Problem(f"fragment input array {name}")
            vals = ", ".join(repr(constant(loc, f + c)) for c in range(n))
            if loc in BUILTIN_FEED:
                body.append(f"{BUILTIN_FEED[loc]} = {ty}({vals});")
            else:
                i = int(loc[len("VARYING_SLOT_TEX"):])
                full = ", ".join(repr(constant(loc, c)) for c in range(4))
                body.append(f"gl_TexCoord[{i}] = vec4({full});")
            continue
        if not loc.startswith("VARYING_SLOT_VAR") or k != 1:
            raise Problem(f"fragment input {ty} {name} at {loc}")
        parts = name[len("packed:"):].split(",") if name.startswith("packed:") else [name]
        pieces = []
        for part in parts:
            var, _, swz = part.partition(".")
            # An element of an array input (`v_StrMatrix[1].yz`: the linker packs arrays element
            # by element); an array of one element may also come as the bare name.
            elem = re.fullmatch(r"(\w+)\[(\d+)\]", var)
            var, e = (elem.group(1), int(elem.group(2))) if elem else (var, None)
            if var in declared and declared[var][0] in MATRIX_COLUMNS and declared[var][2] is None:
                # a matrix input's columns are packed like array elements (`v_StrMatrix[1].yz`)
                col, n_cols = MATRIX_COLUMNS[declared[var][0]]
                declared[var] = (col, declared[var][1], n_cols, declared[var][0])
            if var not in declared or declared[var][0] not in TYPE_SIZE:
                raise Problem(f"fragment input {var}: no float declaration in the source")
            length = declared[var][2]
            if e is None and length is not None:
                if length != 1:
                    raise Problem(f"fragment input {var}: array of {length} named as a whole")
                e = 0
            if e is not None and (length is None or e >= length):
                raise Problem(f"fragment input {var}[{e}]: not an element of its declaration")
            size = TYPE_SIZE[declared[var][0]]
            comps = ["xyzw".index(c) for c in swz] if swz else list(range(size))
            pieces.append((PACKING_ORDER[packing_size(declared, var) % 4], (var, e), comps))
        pieces.sort(key=lambda p: p[0])
        at = f
        for _, key, comps in pieces:
            for c in comps:
                slot = re.sub(r"\d+$", lambda m: str(int(m.group(0)) + at // 4), loc)
                values.setdefault(key, {})[c] = constant(slot, at % 4)
                at += 1
    decls = []
    storage = "out" if version >= 130 else "varying"
    for var in dict.fromkeys(v for v, _ in values):
        ty, qual, length = declared[var][:3]
        matrix = declared[var][3] if len(declared[var]) > 3 else None
        qual = " ".join(q for q in qual.split() if q in ("flat", "noperspective", "centroid"))
        dims = f"[{length}]" if length is not None and not matrix else ""
        decls.append(f"{qual + ' ' if qual else ''}{storage} {matrix or ty} {var}{dims};")
        # every element is written (those the fragment shader does not read hold zeros)
        for e in range(length or 1):
            comps = values.get((var, e if length is not None else None), {})
            vals = ", ".join(repr(comps.get(c, 0.0)) for c in range(TYPE_SIZE[ty]))
            target = f"{var}[{e}]" if length is not None else var
            body.append(f"{target} = {ty}({vals});")
    pos = "in vec4 wavesim_pos;" if core else ""
    src = "\n".join([line, pos] + decls + ["void main() {",
                      "  gl_Position = vec4(%s.xy, 0.0, 1.0);" % ("wavesim_pos" if core else
                                                                   "gl_Vertex")] +
                     ["  " + b for b in body] + ["}", ""])
    planes = [None] * info.get("fs_nr_cf", 0)
    for b in info["fs_binding"]:
        for i in range(int(b["count"])):
            comp = int(b["offset"]) + i
            if b["slot"] == "VARYING_SLOT_POS":
                v = {3: 1.0, 2: 0.5}[comp]  # W = 1; window Z of z = 0 in depth range [0, 1]
            else:
                v = constant(b["slot"], comp)
            planes[int(b["cf_base"]) + i] = [0.0, 0.0, v]
    if any(p is None for p in planes):
        raise Problem("coefficient register without a binding")
    return src, planes


def fragment_reference(harness, shader_test, vs_source):
    """llvmpipe's render target 0 (bytes) over the 16x16 target: {(x, y): (r, g, b, a)}."""
    vs_path = pathlib.Path(TMP + "-feed.vert")
    vs_path.write_text(vs_source)
    env = dict(os.environ, EGL_PLATFORM="surfaceless", LIBGL_ALWAYS_SOFTWARE="1",
               GALLIUM_DRIVER="llvmpipe", MESA_GL_VERSION_OVERRIDE="3.3COMPAT",
               MESA_GLSL_VERSION_OVERRIDE="330")
    for k in ("LD_LIBRARY_PATH", "LIBGL_DRIVERS_PATH"):
        env.pop(k, None)
    # The uniforms' values and texture units follow their numbering in the original program
    # (tools/agx/mesa_shader_test.c): take it from a run of the original, give it to the feed run.
    r = subprocess.run([harness, shader_test], env=dict(env, SHADER_TEST_PRINT_UNIFORMS="1"),
                       capture_output=True, text=True, timeout=60)
    numbering = pathlib.Path(TMP + "-uniforms.txt")
    numbering.write_text("".join(line + "\n" for line in r.stdout.splitlines()
                                 if line.startswith("uniform ")))
    env.update(SHADER_TEST_VS=str(vs_path), SHADER_TEST_PIXELS="1",
               SHADER_TEST_UNIFORMS=str(numbering))
    r = subprocess.run([harness, shader_test], env=env, capture_output=True, text=True, timeout=60)
    px = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["pixel"]:
            px[(int(parts[1]), int(parts[2]))] = tuple(int(v) for v in parts[3:7])
    if len(px) != 256:
        raise Problem("llvmpipe: " + (r.stderr.strip().splitlines() or ["no output"])[-1][:200])
    return px


# Vertex shaders whose outputs are ill-conditioned in the angle reduction of sin/cos (docs/AGX.md,
# "Mesa 22.3 corpus"): their reference is llvmpipe running the GLSL with sin and cos written as
# Mesa's agx_lower_sincos reduces them, in f32: turns = x * 1/(2 pi) (+ 1/4 for cos), fract,
# then the sine of that fraction of a turn.
MESA_SINCOS = {"unity_99-Water.0000.vs"}

MESA_SINCOS_GLSL = "".join(
    f"{t} wavesim_mesa_sin({t} x) {{ return sin(fract(x * 0.159154943) * 6.28318548); }}\n"
    f"{t} wavesim_mesa_cos({t} x) {{ return sin(fract(x * 0.159154943 + 0.25) * 6.28318548); }}\n"
    for t in ("float", "vec2", "vec3", "vec4"))


def with_mesa_sincos(shader_test):
    """A copy of the .shader_test whose vertex shader calls MESA_SINCOS_GLSL for sin and cos."""
    text = shader_test.read_text(errors="replace")
    m = re.search(r"^\[vertex shader\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if not m:
        raise Problem("no vertex shader text")
    vs = re.sub(r"\b(sin|cos)\s*\(", r"wavesim_mesa_\1(", m.group(1))
    vs, n = re.subn(r"^(\s*void\s+main\s*\()", MESA_SINCOS_GLSL + r"\1", vs, count=1, flags=re.M)
    if n != 1:
        raise Problem("no main() in the vertex shader")
    out = pathlib.Path(TMP + "-mesa-sincos.shader_test")
    out.write_text(text[:m.start(1)] + vs + text[m.end(1):])
    return out


def vs_source_of(shader_test):
    text = shader_test.read_text(errors="replace")
    m = re.search(r"^\[vertex shader\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    return m.group(1) if m else ""


def fs_source_of(shader_test):
    text = shader_test.read_text(errors="replace")
    m = re.search(r"^\[fragment shader\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if not m:
        raise Problem("no fragment shader text")
    return m.group(1)


def fragment_job(info, pushes, mem, stem, harness, shader_test, state):
    if info.get("reads_tib"):
        raise Problem("reads the tile buffer")
    vs, planes = fragment_feed(info, fs_source_of(shader_test))
    lines = ['kind = "fragment"', "[fragment]", "width = 16", "height = 16",
             "coefficients = [" + ", ".join("[%r, %r, %r]" % tuple(p) for p in planes) + "]"]
    if "gl_FrontFacing" in preprocess(fs_source_of(shader_test)):
        # the harness draws one counter-clockwise triangle (GL's default front face)
        lines.append("front_facing = true")
    job = build_job(info, pushes, mem, stem + ".bin", lines, state)
    ref = fragment_reference(harness, shader_test, vs)
    return job, "".join(f"{x} {y} {' '.join(map(str, v))}\n" for (x, y), v in sorted(ref.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dumps", type=pathlib.Path)
    ap.add_argument("shaders", type=pathlib.Path)
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--harness")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--stage", choices=["vs", "fs"])
    ap.add_argument("--exclude", type=pathlib.Path, default=HERE / "mesa_corpus_excluded.txt",
                    help="STEM: reason lines; those shaders get no job (the reason goes to the "
                         "summary)")
    a = ap.parse_args()
    harness = a.harness
    if not harness:
        harness = "/tmp/wavesim-shader_test-llvmpipe"
        subprocess.run(["cc", "-O2", "-o", harness, str(HERE / "mesa_shader_test.c"),
                        "-lEGL"], check=True)
    a.out.mkdir(parents=True, exist_ok=True)
    summary, made = [], 0
    excluded = {}
    if a.exclude.exists():
        for line in a.exclude.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                k, _, why = line.partition(":")
                excluded[k.strip()] = why.strip()
    dumps = sorted(a.dumps.rglob("*.vs.txt")) + sorted(a.dumps.rglob("*.fs.txt"))
    for txt in dumps:
        rel = txt.parent.relative_to(a.dumps)
        num, stage = txt.name.split(".")[:2]
        if a.stage and stage != a.stage:
            continue
        label = f"{rel}/{num}.{stage}"
        draw = txt.with_name(f"{num}.{stage}.draw.txt")
        stem = str(rel).replace("/", "_") + f".{num}.{stage}"
        shader_test = a.shaders / f"{rel}.shader_test"
        try:
            if stem in excluded:
                raise Problem("excluded: " + excluded[stem])
            info = parse_info(txt)
            if info.get("internal"):
                raise Problem("internal shader")
            if not draw.exists():
                raise Problem("never drawn")
            pushes, mem, state = parse_draw(draw)
            if stage == "vs":
                job = build_job(info, pushes, mem, stem + ".bin",
                                ['kind = "vertex"', "[vertex]", "vertex_count = 3"], state)
                ref = reference(harness, with_mesa_sincos(shader_test)
                                if stem in MESA_SINCOS else shader_test, info)
                ref_text = "".join(f"{v} {s} {w:08x}\n" for (v, s), w in sorted(ref.items()))
            else:
                job, ref_text = fragment_job(info, pushes, mem, stem, harness, shader_test,
                                             state)
        except (Problem, KeyError, ValueError, subprocess.TimeoutExpired) as e:
            summary.append(f"{label}: skipped: {e}")
            continue
        (a.out / (stem + ".bin")).write_bytes(txt.with_name(f"{num}.{stage}.bin").read_bytes())
        (a.out / (stem + ".toml")).write_text(job)
        (a.out / (stem + ".ref")).write_text(ref_text)
        summary.append(f"{label}: job {stem}")
        made += 1
        if a.limit and made >= a.limit:
            break
    (a.out / "summary.txt").write_text("\n".join(summary) + "\n")
    print(f"{made} jobs; {len(summary) - made} skipped (see {a.out}/summary.txt)")


if __name__ == "__main__":
    sys.exit(main())
