#!/usr/bin/env python3
"""Turn Mesa r600 dumps of shader-db programs into wavesim-r700 run configurations with llvmpipe
references (issue 28): corpus/r700/mesa/.

    tools/r700/mesa_corpus.py SHADER_DB_SHADERS DUMPS OUT [--mesa WORKDIR]

DUMPS/<chip>/ is what `tools/mesa/run_corpus.sh r600 <CHIP> SHADER_DB_SHADERS DUMPS/<chip>` writes
for rv770, rv730 and rv710 (the r600 driver of Mesa 22.3.6 built by tools/mesa/build.sh, each
program's shaders, fetch shader and draw state, tools/mesa/patch_r600.py). For every program that
linked on all three chips this writes OUT/<program>/:

    vs.bin fetch.bin ps.bin   the words the driver uploads (per chip `vs.rv730.bin` ... if they differ)
    vs.toml ps.toml           run configurations (`wavesim run --target rv770 --config vs.toml vs.bin`)
    expect.txt                llvmpipe's outputs for the exports the run must produce

The reference is Debian's llvmpipe (libgl1-mesa-dri 22.3.6: the same GLSL front end and linker as
the r600 build) running the same GLSL with the same inputs through tools/mesa/shader_test.c built
against the system libEGL:
  - vertex shader: the three vertices' varyings by transform feedback (--r700-ref-vs); each varying
    goes to the export the r600 driver gives its varying slot (NIR variable locations in the dump,
    the driver's semantic rule of sfn_shader.cpp r600_get_varying_semantic, SPI_VS_OUT_ID);
  - pixel shader: the same program whose vertex shader also runs with vertex 0's attributes on all
    three vertices while an added attribute places a screen-covering triangle (--r700-ref-ps), so
    every varying holds vertex 0's value over the triangle; 2x2 pixels of four RGBA32F targets. The
    wavesim run gets those varyings in the input GPRs the driver assigned (semantics matched as the
    SPI matches SPI_PS_INPUT_CNTL to SPI_VS_OUT_ID), gl_FragCoord = (x + 0.5, y + 0.5, 0.5, 1).
Programs the script cannot describe are listed with the reason in OUT/skipped.txt.
"""
import argparse
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

CHIPS = ["rv770", "rv730", "rv710"]
# TGSI semantic names (p_shader_tokens.h) as the dump prints them.
POSITION, COLOR, BCOLOR, FOG, PSIZE, GENERIC, FACE = 0, 1, 2, 3, 4, 5, 7
CLIPDIST, CLIPVERTEX, TEXCOORD, PCOORD = 13, 14, 19, 20
SENTINEL = 0xC9800000  # -1048576.0, the reference's clear value (shader_test.c)


def semantic(slot):
    """NIR varying slot name -> (TGSI semantic, sid) as r600's sfn assigns it
    (tgsi_get_gl_varying_semantic with TEXCOORD support, then GENERIC + 9 and PCOORD = 8)."""
    fixed = {"POS": (POSITION, 0), "COL0": (COLOR, 0), "COL1": (COLOR, 1), "BFC0": (BCOLOR, 0),
             "BFC1": (BCOLOR, 1), "FOGC": (FOG, 0), "PSIZ": (PSIZE, 0), "PNTC": (PCOORD, 8),
             "CLIP_VERTEX": (CLIPVERTEX, 0), "CLIP_DIST0": (CLIPDIST, 0),
             "CLIP_DIST1": (CLIPDIST, 1), "FACE": (FACE, 0)}
    if slot in fixed:
        return fixed[slot]
    m = re.fullmatch(r"TEX(\d)", slot)
    if m:
        return (TEXCOORD, int(m.group(1)))
    m = re.fullmatch(r"VAR(\d+)", slot)
    if m:
        return (GENERIC, int(m.group(1)) + 9)
    return None


SLOT_NAMES = ["POS", "COL0", "COL1", "FOGC"] + [f"TEX{i}" for i in range(8)] + [
    "PSIZ", "BFC0", "BFC1", "EDGE", "CLIP_VERTEX", "CLIP_DIST0", "CLIP_DIST1"]


def slot_name(index):
    """gl_varying_slot number (shader_enums.h) -> the name NIR prints without VARYING_SLOT_."""
    if index >= 32:
        return f"VAR{index - 32}"
    return SLOT_NAMES[index] if index < len(SLOT_NAMES) else f"SLOT{index}"


def stored_components(text):
    """(slot name, component) the shader's store_output intrinsics write (NIR write masks)."""
    out = set()
    for m in re.finditer(r"store_output .*?wrmask=([xyzw]+) .*?component=(\d+).*?io location=(\d+)",
                         text):
        for ch in m.group(1):
            out.add((slot_name(int(m.group(3))), "xyzw".index(ch) + int(m.group(2))))
    return out


def slot_add(slot, k):
    """The slot k places after `slot` (array elements take consecutive slots)."""
    m = re.fullmatch(r"(TEX|VAR|COL|BFC|CLIP_DIST)(\d+)", slot)
    if not m:
        return slot if k == 0 else None
    return f"{m.group(1)}{int(m.group(2)) + k}"


VEC = {"float": 1, "vec2": 2, "vec3": 3, "vec4": 4, "int": 1, "ivec2": 2, "ivec3": 3, "ivec4": 4,
       "uint": 1, "uvec2": 2, "uvec3": 3, "uvec4": 4, "bool": 1}


def nir_vars(txt, mode):
    """(name, comps, array_len or None, slot, frac) of the NIR source's shader_in/out variables.
    The linker's split gl_TexCoord elements (`gl_out_TexCoord0`) get their GLSL names back."""
    out = []
    for line in txt.split("source_begin", 1)[-1].splitlines():
        if not line.startswith("decl_var ") or f" {mode} " not in line:
            continue
        m = re.search(r" (\w+)(?:\[(\d+)\])? (\S+) \(VARYING_SLOT_(\w+)(?:\.([xyzw]+))?, ", line)
        if not m:
            continue
        ty, arr, name, slot, sw = m.groups()
        tc = re.fullmatch(r"gl_(?:out|in)_TexCoord(\d+)", name)
        if tc:
            name = f"gl_TexCoord[{tc.group(1)}]"
        if ty not in VEC:
            out.append((name, None, None, slot, 0))
            continue
        frac = "xyzw".index(sw[0]) if sw else 0
        out.append((name, VEC[ty], int(arr) if arr else None, slot, frac))
    return out


def parse_txt(path):
    d = {"inputs": [], "outputs": [], "text": path.read_text(errors="replace")}
    for line in d["text"].split("source_begin", 1)[0].splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] in ("input", "output"):
            kv = dict(p.split("=", 1) for p in parts[2:])
            d[parts[0] + "s"].append({k: int(v, 0) for k, v in kv.items()})
        elif len(parts) == 2:
            d[parts[0]] = parts[1]
    return d


def parse_draw(path):
    """The last draw's state (wavesim_dump_draw)."""
    stages, cur, vbs, strides = {}, None, {}, {}
    base = 0
    for line in path.read_text().splitlines():
        p = line.split()
        if not p:
            continue
        if p[0] == "resource_id_base":
            base = int(p[1])
        elif p[0] == "stage":
            cur = stages.setdefault(p[1], {"cb": {}, "views": {}, "samplers": {}})
        elif p[0] in ("words", "regs"):
            cur[p[0]] = [int(x, 16) for x in p[2:]]
        elif p[0] == "constbuf":
            cur["cb"][int(p[1])] = [int(x, 16) for x in p[3:]] if p[2] != "unmapped" else None
        elif p[0] == "view":
            kv = dict(x.split("=", 1) for x in p[2:] if "=" in x)
            if "words" in p:
                i = p.index("words")
                kv["words"] = [int(x, 16) for x in p[i + 2:]]
            cur["views"][int(p[1])] = kv
        elif p[0] == "sampler":
            i = p.index("words")
            cur["samplers"][int(p[1])] = [int(x, 16) for x in p[i + 2:]]
        elif p[0] == "vertexbuf_stride":
            strides[int(p[1])] = int(p[2])
        elif p[0] == "vertexbuf":
            vbs[int(p[1])] = [int(x, 16) for x in p[3:]] if p[2] != "unmapped" else None
    return base, stages, vbs, strides


def context_regs(words):
    """SET_CONTEXT_REG writes in a shader's command buffer: {register address: value}."""
    regs, i = {}, 0
    while i < len(words):
        h = words[i]
        if h >> 30 != 3:
            i += 1
            continue
        count, op = ((h >> 16) & 0x3FFF) + 1, (h >> 8) & 0xFF
        body = words[i + 1:i + 1 + count]
        if op == 0x69 and body:  # PKT3_SET_CONTEXT_REG
            for k, v in enumerate(body[1:]):
                regs[0x28000 + 4 * (body[0] + k)] = v
        i += 1 + count
    return regs


def hexw(words):
    return "[" + ", ".join(f'"0x{w:08x}"' for w in words) + "]"


def vec4s(words):
    words = words + [0] * (-len(words) % 4)
    return "[" + ", ".join(hexw(words[i:i + 4]) for i in range(0, len(words), 4)) + "]"


class Skip(Exception):
    pass


def dump_files(d):
    """The latest vs/ps/fetch/draw files of a program's dump directory."""
    files = {}
    for f in sorted(d.iterdir()):
        m = re.fullmatch(r"(\d+)\.(\w+)\.(bin|txt)", f.name)
        if m:
            files.setdefault(m.group(2), {})[int(m.group(1)), m.group(3)] = f
    return files


def pick(files, stage, words):
    """The dumped shader whose words the draw ran."""
    for (n, ext), f in sorted(files.get(stage, {}).items()):
        if ext == "bin" and f.read_bytes() == b"".join(w.to_bytes(4, "little") for w in words):
            return f, parse_txt(f.with_suffix(".txt"))
    raise Skip(f"no {stage} dump holds the words the draw ran")


# pipe_texture_target; a rectangle texture is a 2-D resource read with unnormalized coordinates
# (the TEX instruction's COORD_TYPE fields say so).
TEX_TARGETS = {1: "1d", 2: "2d", 3: "3d", 4: "cube", 5: "2d", 6: "1d_array", 7: "2d_array"}
CLAMP = {0: "wrap", 2: "clamp", 6: "border"}  # SQ_TEX_WRAP, CLAMP_LAST_TEXEL, CLAMP_BORDER
COMPARE = ["never", "less", "equal", "lequal", "greater", "notequal", "gequal", "always"]


def resource_swizzle(view):
    """SQ_TEX_RESOURCE_WORD4 DST_SEL_X..W (bits 16, 19, 22, 25) of the view's resource words, as
    the runner's `swizzle` ("xyzw01"), or None when a select is reserved."""
    w4 = view["words"][4]
    sels = [(w4 >> s) & 7 for s in (16, 19, 22, 25)]
    return "".join("xyzw01"[k] for k in sels) if max(sels) <= 5 else None


def texture_cfg(rid, view, alpha, depth_units, unit):
    """The harness's texture (shader_test.c set_uniforms) as the view shows it: 4x4(x4) RGBA8, or
    for a shadow sampler the GL_DEPTH_COMPONENT32F texture of r700_shadow_texture (FMT_32_FLOAT,
    d(i) = (i + 0.5) / n for its n texels), with the resource's DST_SEL from the driver's words."""
    dim = TEX_TARGETS.get(int(view["target"]))
    if dim is None:
        raise Skip(f"texture target {view['target']}")
    sw = resource_swizzle(view)
    if sw is None:
        raise Skip(f"texture resource DST_SEL {view['words'][4]:#x}")
    w, h, depth, layers = (int(view[k]) for k in ("width", "height", "depth", "layers"))
    if unit in depth_units:
        if view.get("format") != "PIPE_FORMAT_Z32_FLOAT":
            raise Skip(f"depth texture format {view.get('format')}")
        n = {"1d": w, "2d": w * h, "2d_array": w * h * layers, "cube": 6 * w * h}.get(dim)
        if n is None:
            raise Skip(f"depth texture target {dim}")
        # The harness divides in binary32; a binary64 quotient rounded to binary32 by the runner
        # is the same value (53 >= 2 * 24 + 2 bits: double rounding of a quotient is innocuous).
        data = ", ".join(repr((i + 0.5) / n) for i in range(n))
        lines = [f"[[texture]]\nresource = {rid}\nformat = \"depth32f\"\ndim = \"{dim}\"\n"
                 f"width = {w}\nswizzle = \"{sw}\""]
        if dim != "1d":
            lines.append(f"height = {h}")
        if dim == "2d_array":
            lines.append(f"layers = {layers}")
        lines.append(f"data = [{data}]")
        return "\n".join(lines) + "\n"
    if view.get("format") not in ("PIPE_FORMAT_R8G8B8A8_UNORM",):
        raise Skip(f"texture format {view.get('format')}")
    if sw != "xyzw":
        raise Skip(f"texture swizzle {sw}")

    def slice_(z, rows):
        return [v for y in range(rows) for x in range(w)
                for v in (16 * x + 1, 16 * y + 2, 16 * z + 3, alpha)]
    lines = [f"[[texture]]\nresource = {rid}\nformat = \"rgba8\"\ndim = \"{dim}\"\nwidth = {w}"]
    if dim == "1d":
        data = slice_(0, 1)
    elif dim == "1d_array":
        data = [v for z in range(layers) for v in slice_(z, 1)]
        lines.append(f"layers = {layers}")
    elif dim in ("2d_array", "3d"):
        n = layers if dim == "2d_array" else depth
        data = [v for z in range(n) for v in slice_(z, h)]
        lines.append(f"height = {h}\nlayers = {n}")
    elif dim == "cube":
        data = slice_(0, h) * 6
        lines.append(f"height = {h}")
    else:
        data = slice_(0, h)
        lines.append(f"height = {h}")
    lines.append("data = [" + ", ".join(map(str, data)) + "]")
    return "\n".join(lines) + "\n"


def sampler_cfg(i, words):
    w0 = words[0]
    filt = {0: "point", 1: "bilinear"}
    mag, mn, mip = (w0 >> 9) & 7, (w0 >> 12) & 7, (w0 >> 17) & 3
    if mag != mn or mag not in filt:
        raise Skip(f"sampler filters mag {mag} min {mn}")
    wraps = [CLAMP.get((w0 >> s) & 7) for s in (0, 3, 6)]
    if None in wraps:
        raise Skip(f"sampler clamp modes {[(w0 >> s) & 7 for s in (0, 3, 6)]}")
    s = (f"[[sampler]]\nid = {i}\nfilter = \"{filt[mag]}\"\nwrap_u = \"{wraps[0]}\"\n"
         f"wrap_v = \"{wraps[1]}\"\nwrap_w = \"{wraps[2]}\"\n"
         f"mip_filter = \"{['none', 'point', 'linear'][mip] if mip < 3 else 'x'}\"\n")
    cmp = (w0 >> 26) & 7
    if cmp:
        s += f"compare = \"{COMPARE[cmp]}\"\n"
    return s


def stage_common(st, txt, base, info_alpha, regs_res, depth_units):
    """Constant buffers, textures, samplers and GPR/stack counts shared by both stages."""
    out = []
    resources = regs_res
    out.append(f"num_gprs = {resources & 0xFF}\nstack_entries = {(resources >> 8) & 0xFF}\n")
    for i, words in sorted(st["cb"].items()):
        if words is None:
            raise Skip(f"constant buffer {i} not mapped")
        out.append(f"[[constant_buffer]]\nindex = {i}\nvalues = {vec4s(words)}\n")
    for i, view in sorted(st["views"].items()):
        if i not in info_alpha:
            raise Skip(f"texture unit {i} not in the harness's list")
        out.append(texture_cfg(base + i, view, info_alpha[i], depth_units, i))
    for i, words in sorted(st["samplers"].items()):
        out.append(sampler_cfg(i, words))
    return out


SKIP_SLOTS = ("PSIZ", "CLIP_VERTEX", "CLIP_DIST0", "CLIP_DIST1", "EDGE")


def slot_order(slot):
    m = re.fullmatch(r"([A-Z_]+?)(\d*)", slot)
    return (m.group(1), int(m.group(2) or 0)) if m else (slot, 0)


def varying_names(vs_vars):
    """The names to capture: the vertex shader's output variables and the varyings the GLSL
    linker's `packed:a,b[1],c.x,...` variables name (array elements stay separate names)."""
    names = []
    for name, comps, arr, slot, frac in vs_vars:
        if "@" in name or slot in SKIP_SLOTS:
            continue
        if name.startswith("packed:"):
            for part in name[len("packed:"):].split(","):
                base = part.split(".")[0]
                if base not in names:
                    names.append(base)
        elif not name.startswith("gl_") or name.startswith("gl_TexCoord[") or name in (
                "gl_Position", "gl_FrontColor",
                                                     "gl_BackColor", "gl_FrontSecondaryColor",
                                                     "gl_BackSecondaryColor", "gl_TexCoord",
                                                     "gl_FogFragCoord"):
            if comps is None:
                raise Skip(f"varying {name} of a type this script does not capture")
            if name not in names:
                names.append(name)
    return names


def varying_layout(vs_vars, sizes):
    """Where each captured varying component goes: [(slot, component, name, index in the name's
    captured components)]. A `packed:` variable lists, in order, the pieces of the varyings it
    holds (gl_nir_lower_packed_varyings after nir_lower_io_to_scalar_early): a piece with a
    swizzle (`world[2].z`) holds those components; when there are as many pieces as components,
    each holds one; otherwise a piece holds what is left of its varying. A varying's pieces come
    in the order of its components. This reading is checked by the test, not trusted: a wrong
    placement gives a difference from llvmpipe, never a match."""
    placed, used, ambiguous = [], {}, set()
    holders = {}  # bare name -> the packed variables holding a piece of it without a swizzle
    for name, comps, arr, slot, frac in sorted(vs_vars, key=lambda v: (slot_order(v[3]), v[4])):
        if "@" in name or slot in SKIP_SLOTS:
            continue
        if comps is None:
            raise Skip(f"varying {name} of a type this script does not capture")
        if name.startswith("packed:"):
            parts = name[len("packed:"):].split(",")
            if arr is not None:
                raise Skip(f"packed varying array {name}")
            c = frac
            for part in parts:
                base, _, swz = part.partition(".")
                if swz:
                    idx = ["xyzw".index(ch) for ch in swz if ch in "xyzw"]
                    n = len(idx)
                elif len(parts) == comps:
                    n, idx = 1, None
                else:
                    n, idx = min(sizes.get(base, 0) - used.get(base, 0), frac + comps - c), None
                if n <= 0:
                    raise Skip(f"cannot place {part} in {name}")
                for j in range(n):
                    k = idx[j] if idx else used.get(base, 0) + j
                    placed.append((slot, c, base, k))
                    c += 1
                if not idx:
                    holders.setdefault(base, set()).add(name)
                    used[base] = used.get(base, 0) + n
                    # a bare name holding fewer components than the varying has: which ones is
                    # not in the name (the converter takes them in order)
                    ambiguous.add(base)
            if c != frac + comps:
                raise Skip(f"packed varying {name} ({comps} components) does not add up")
            continue
        if name.startswith("gl_") and not name.startswith("gl_TexCoord[") and name not in (
                "gl_Position", "gl_FrontColor", "gl_BackColor",
                                                    "gl_FrontSecondaryColor",
                                                    "gl_BackSecondaryColor", "gl_TexCoord",
                                                    "gl_FogFragCoord"):
            continue
        for k in range(arr or 1):
            s = slot_add(slot, k)
            if s is None:
                raise Skip(f"array varying {name} at {slot}")
            for c in range(comps):
                placed.append((s, frac + c, name, k * comps + c))
    # names whose every component is placed are not ambiguous, unless bare pieces of them sit in
    # more than one packed variable: which piece holds which components is then not in the names
    # (warsow 187 packs qf_FrontColor's alpha with v_TexCoord and its rgb in a second variable)
    ambiguous = {n for n in ambiguous
                 if used.get(n, 0) < sizes.get(n, 0) or len(holders.get(n, ())) > 1}
    return placed, ambiguous


def run_ref(harness, args, env, cache):
    """The llvmpipe harness's output, kept in `cache` under the hash of its inputs."""
    mesa = pathlib.Path(__file__).parent.parent / "mesa"
    h = hashlib.sha256()
    for part in ("shader_test.c", "shader_test_common.h"):
        h.update((mesa / part).read_bytes())
    for a in args:
        h.update(b"\0" + (pathlib.Path(a).read_bytes() if os.path.isfile(a) else a.encode()))
    key = h.hexdigest()
    hit = cache / key if cache else None
    if hit and hit.exists():
        text = hit.read_text()
        if text.startswith("SKIP "):
            raise Skip(text[5:])
        return text
    try:
        out = run_ref_uncached(harness, args, env)
    except Skip as e:
        if hit:
            hit.write_text(f"SKIP {e}")
        raise
    if hit:
        hit.write_text(out)
    return out


def run_ref_uncached(harness, args, env):
    r = subprocess.run([harness] + args, capture_output=True, text=True, env=env, timeout=120)
    if r.returncode != 0:
        err = [l for l in r.stderr.splitlines() if l.startswith("shader_test: ")]
        raise Skip("llvmpipe: " + (err[-1].split("FAILED", 1)[-1].strip()[:200] if err else
                                   f"exit {r.returncode}"))
    return r.stdout


def patched_vs_test(src_text):
    """The .shader_test with `wavesim_pos` placing the triangle after the real main runs."""
    m = re.search(r"^\[vertex shader\]\n", src_text, re.M)
    if not m:
        raise Skip("no vertex shader")
    end = re.search(r"^\[", src_text[m.end():], re.M)
    vs_end = m.end() + (end.start() if end else len(src_text) - m.end())
    vs = src_text[m.end():vs_end]
    # (every definition: a shader may define main once per #ifdef branch)
    vs2, n = re.subn(r"\bvoid\s+main\s*\(\s*(void)?\s*\)", "void wavesim_main()", vs)
    if n < 1:
        raise Skip("vertex shader main not found")
    ver = re.search(r"^\s*#version\s+(\d+)", vs, re.M)
    kw = "in" if ver and int(ver.group(1)) >= 130 else "attribute"
    # Every vertex holds vertex 0's attributes; gl_VertexID is vertex 0's too, or a varying computed
    # from it (dolphin's full-screen passes) would vary over the triangle.
    vs2 = re.sub(r"\bgl_VertexID\b", "0", vs2)
    # Clip distances clip only where GL_CLIP_DISTANCEi is enabled (OpenGL 4.6, 13.7), which the
    # harness never does, but llvmpipe (Mesa 22.3.6) clipped the screen-covering triangle away by
    # the distances piglit's clipping tests write: the reference run sets them to 1 after the real
    # main has used them, so they clip nothing, as without the enables.
    clip = ""
    decl = re.search(r"\bgl_ClipDistance\s*\[\s*(\d+)\s*\]\s*;", vs)
    used = [int(i) for i in re.findall(r"\bgl_ClipDistance\s*\[\s*(\d+)\s*\]", vs)]
    if decl or (used and not re.search(r"\bgl_ClipDistance\s*\[\s*[^\d\s]", vs)):
        n = int(decl.group(1)) if decl else max(used) + 1
        clip = "".join(f" gl_ClipDistance[{i}] = 1.0;" for i in range(n))
    vs2 += (f"\n{kw} vec4 wavesim_pos;\n"
            f"void main() {{ wavesim_main(); gl_Position = wavesim_pos;{clip} }}\n")
    return src_text[:m.end()] + vs2 + src_text[vs_end:]


def texcoord_copies(src_text, names):
    """The .shader_test whose vertex shader also copies every captured gl_TexCoord[n] into a
    generic varying `wavesim_tcN`, and the renaming {gl_TexCoord[n]: wavesim_tcN}. llvmpipe's
    (Mesa 22.3.6) transform feedback of the compatibility built-in gl_TexCoord[n] captures zeros
    whatever the shader writes (checked with piglit's literal-varyings: gl_TexCoord[0] = (0, 0, 0,
    1) is captured as zeros); the same values read back from gl_TexCoord[n] into a generic varying
    are captured as written. Other names are left alone."""
    tc = [n for n in names if re.fullmatch(r"gl_TexCoord\[\d+\]", n)]
    if not tc:
        return src_text, {}
    m = re.search(r"^\[vertex shader\]\n", src_text, re.M)
    if not m:
        return src_text, {}
    end = re.search(r"^\[", src_text[m.end():], re.M)
    vs_end = m.end() + (end.start() if end else len(src_text) - m.end())
    vs = src_text[m.end():vs_end]
    vs2, n_main = re.subn(r"\bvoid\s+main\s*\(\s*(void)?\s*\)", "void wavesim_xfb_main()", vs)
    if n_main < 1:
        return src_text, {}
    ver = re.search(r"^\s*#version\s+(\d+)", vs, re.M)
    kw = "out" if ver and int(ver.group(1)) >= 130 else "varying"
    renamed = {n: "wavesim_tc" + n[len("gl_TexCoord["):-1] for n in tc}
    vs2 += "".join(f"\n{kw} vec4 {v};" for v in renamed.values())
    vs2 += "\nvoid main() { wavesim_xfb_main(); "
    vs2 += "".join(f"{v} = {n}; " for n, v in renamed.items()) + "}\n"
    return src_text[:m.end()] + vs2 + src_text[vs_end:], renamed


def convert(rel, shaders, dumps, out, harness, env, cache):
    src = shaders / (rel + ".shader_test")
    per_chip = {}
    for chip in CHIPS:
        d = dumps / chip / rel
        if not d.is_dir():
            raise Skip(f"no dump on {chip}")
        files = dump_files(d)
        draws = sorted(files.get("draw", {}).items())
        if not draws:
            raise Skip(f"no draw on {chip}")
        base, stages, vbs, strides = parse_draw(draws[-1][1])
        if "vs" not in stages or "ps" not in stages:
            raise Skip("the draw has no vertex or no pixel shader")
        vs_bin, vs_txt = pick(files, "vs", stages["vs"]["words"])
        ps_bin, ps_txt = pick(files, "ps", stages["ps"]["words"])
        fetch = sorted((k, f) for k, f in files.get("fetch", {}).items() if k[1] == "bin")
        if not fetch:
            raise Skip("no fetch shader")
        fetch_bin = fetch[-1][1]
        fetch_txt = parse_txt(fetch_bin.with_suffix(".txt"))
        info = (d / "info.txt").read_text() if (d / "info.txt").exists() else ""
        per_chip[chip] = dict(base=base, stages=stages, vbs=vbs, strides=strides,
                              vs=(vs_bin.read_bytes(), vs_txt), ps=(ps_bin.read_bytes(), ps_txt),
                              fetch=(fetch_bin.read_bytes(), fetch_txt), info=info)
    c0 = per_chip["rv770"]
    vs_txt, ps_txt = c0["vs"][1], c0["ps"][1]
    # Shadow samplers get a depth texture with the compare mode on (shader_test.c
    # r700_shadow_texture). One the harness could not give one would read its color texture,
    # which OpenGL leaves undefined (OpenGL 4.6, 8.23.1 and 11.1.3.5); noted for the test.
    # GL types: SAMPLER_1D_SHADOW 0x8b61, 2D_SHADOW 0x8b62, 2D_RECT_SHADOW 0x8b64 (0x8b63 is the
    # plain 2D_RECT), 1D/2D_ARRAY_SHADOW 0x8dc3/0x8dc4, CUBE_SHADOW 0x8dc5.
    shadow = set(re.findall(r"INFO uniform (\S+) type=0x(?:8b6[124]|8dc[345]) ", c0["info"]))
    units = {m.group(1): int(m.group(2)) for m in
             re.finditer(r"^INFO sampler (\S+) element=\d+ unit=(\d+) ", c0["info"], re.M)}
    shadow = {n for n in shadow if units.get(n) not in depth_units(c0["info"])}
    if re.search(r"^\s*(layout\s*\([^)]*\)\s*)?uniform\s+\w+\s*\{", src.read_text(errors="replace"), re.M):
        raise Skip("uniform block (the harness binds no buffer to it)")
    alpha = {}
    for line in c0["info"].splitlines():
        m = re.match(r"INFO sampler \S+ element=\d+ unit=(\d+) .* alpha=(\d+)", line)
        if m:
            alpha[int(m.group(1))] = int(m.group(2))

    # --- llvmpipe: the vertex shader's varyings -------------------------------------------------
    vs_vars = nir_vars(vs_txt["text"], "shader_out")
    names = varying_names(vs_vars)
    if not names:
        raise Skip("no captured varyings")
    # Matrix varyings: the packed names give columns (`world[1]`), transform feedback captures the
    # whole matrix (column-major), so capture `world` and cut it into columns of the matrix's
    # rows (its GLSL declaration: matC or matCxR).
    src_text = src.read_text(errors="replace")
    columns = {}
    for n in list(names):
        base, _, idx = n.partition("[")
        m = re.search(r"\bmat(\d)(?:x(\d))?\s+" + re.escape(base) + r"\s*;", src_text)
        if idx and m:
            columns[n] = (base, int(idx.rstrip("]")), int(m.group(2) or m.group(1)))
    xfb_names = []
    for n in names:
        x = columns[n][0] if n in columns else n
        if x not in xfb_names:
            xfb_names.append(x)
    xfb_text, renamed = texcoord_copies(src_text, xfb_names)
    with tempfile.TemporaryDirectory() as tmp:
        nf = pathlib.Path(tmp) / "names"
        nf.write_text("".join(renamed.get(n, n) + "\n" for n in xfb_names))
        vf = pathlib.Path(tmp) / "vs.shader_test"
        vf.write_text(xfb_text)
        xfb = run_ref(harness, ["--r700-ref-vs", str(nf), str(vf if renamed else src)], env, cache)
        back = {v: k for k, v in renamed.items()}
        xfb = "\n".join(" ".join([p[0], back.get(p[1], p[1])] + p[2:]) if len(p) > 1 else l
                        for l in xfb.splitlines() for p in [l.split()])
        pf = pathlib.Path(tmp) / "ps.shader_test"
        pf.write_text(patched_vs_test(src.read_text(errors="replace")))
        pix = run_ref(harness, ["--r700-ref-ps", str(pf)], env, cache)
    captured = {}
    for line in xfb.splitlines():
        p = line.split()
        if p and p[0] == "XFB":
            captured[(p[1], int(p[2]))] = [int(x, 16) for x in p[3:]]
    for n, (base, col, rows) in columns.items():
        for v in range(3):
            whole = captured.get((base, v), [])
            captured[(n, v)] = whole[col * rows:(col + 1) * rows]
    sizes = {n: len(captured.get((n, 0), [])) for n in names}
    placed, ambiguous = varying_layout(vs_vars, sizes)
    for slot, comp, n, k in placed:
        if k >= sizes.get(n, 0):
            raise Skip(f"llvmpipe captured {sizes.get(n, 0)} components of {n}, the r600 "
                       f"layout places component {k}")
    # (semantic, vertex) -> the 4 components of that varying slot; components the vertex shader
    # does not store are undefined (llvmpipe captures 0, the SPI's default may differ)
    stored = stored_components(vs_txt["text"])
    placed = [p for p in placed if (p[0], p[1]) in stored]
    slots = {}
    for slot, comp, n, k in placed:
        sem = semantic(slot)
        if sem is None:
            raise Skip(f"varying slot {slot}")
        for v in range(3):
            slots.setdefault((sem, v), [None] * 4)[comp] = captured[(n, v)][k]

    # --- expected vertex exports ----------------------------------------------------------------
    vs_regs = context_regs(c0["stages"]["vs"]["regs"])
    out_id = []
    for k in range(10):
        w = vs_regs.get(0x028614 + 4 * k, 0)
        out_id += [(w >> (8 * b)) & 0xFF for b in range(4)]
    expect = []
    for o in vs_txt["outputs"]:
        sem = (o["name"], o["sid"])
        if o["name"] == POSITION:
            target = "pos0"
        elif o["spi_sid"] and o["spi_sid"] in out_id:
            target = f"param{out_id.index(o['spi_sid'])}"
        else:
            continue
        for v in range(3):
            comp4 = slots.get((sem, v))
            if comp4 is None:
                continue
            expect.append(f"vs {v} {target} " + " ".join(
                "........" if x is None else f"{x:08x}" for x in comp4))
    if not expect:
        raise Skip("no vertex export to check")

    # --- expected pixels ------------------------------------------------------------------------
    pixels = {}
    for line in pix.splitlines():
        p = line.split()
        if p and p[0] == "PIX":
            pixels[(int(p[1]), int(p[2]), int(p[3]))] = [int(x, 16) for x in p[4:8]]
    # The components the pixel shader stores (NIR store_output write masks; GL leaves the rest
    # undefined). gl_FragColor (FRAG_RESULT_COLOR) is exported once to pixel0; with several
    # targets the color block replicates it (CB MULTIWRITE, fs_write_all), not the shader.
    masks = {}
    for m in re.finditer(r"store_output .*?wrmask=([xyzw]+) .*?component=(\d+).*?io location=(\d+)",
                         ps_txt["text"]):
        loc, comp = int(m.group(3)), int(m.group(2))
        if loc < 2:
            continue  # depth and stencil exports are not compared
        rt = 0 if loc == 2 else loc - 4
        if rt < 0 or rt >= 4:
            raise Skip(f"pixel shader writes output location {loc}")
        for ch in m.group(1):
            masks.setdefault(rt, set()).add("xyzw".index(ch) + comp)
    for y in range(2):
        for x in range(2):
            t = y * 2 + x
            if masks and all(pixels[(k, x, y)] == [SENTINEL] * 4 for k in masks):
                expect.append(f"ps {t} killed")
                continue
            for k in sorted(masks):
                expect.append(f"ps {t} pixel{k} " + " ".join(
                    f"{w:08x}" if c in masks[k] else "........"
                    for c, w in enumerate(pixels[(k, x, y)])))

    # --- run configurations ---------------------------------------------------------------------
    name = rel.replace("/", "__")
    dst = out / name
    tmpdst = out / (name + ".tmp")
    shutil.rmtree(tmpdst, ignore_errors=True)
    tmpdst.mkdir(parents=True)
    for stage in ("vs", "ps", "fetch"):
        blobs = {chip: per_chip[chip][stage][0] for chip in CHIPS}
        (tmpdst / f"{stage}.bin").write_bytes(blobs["rv770"])
        for chip in CHIPS[1:]:
            if blobs[chip] != blobs["rv770"]:
                (tmpdst / f"{stage}.{chip}.bin").write_bytes(blobs[chip])
    for chip in CHIPS:
        c = per_chip[chip]
        vs_cfg = vs_config(c, alpha)
        ps_cfg = ps_config(c, alpha, slots)
        suffix = "" if chip == "rv770" else f".{chip}"
        for stage, cfg in (("vs", vs_cfg), ("ps", ps_cfg)):
            if chip != "rv770" and cfg == (tmpdst / f"{stage}.toml").read_text():
                continue
            (tmpdst / f"{stage}{suffix}.toml").write_text(cfg)
    notes = ""
    if ambiguous:
        notes += "# layout-ambiguous: " + " ".join(sorted(ambiguous)) + "\n"
    if shadow:
        notes += "# shadow-sampler: " + " ".join(sorted(shadow)) + "\n"
    (tmpdst / "expect.txt").write_text(
        # piglit's tests live under tests/spec; shader-db's do not.
        f"# llvmpipe (Mesa 22.3.6) for {'piglit' if rel.startswith('tests/') else 'shader-db'}'s "
        f"{rel}.shader_test; tools/r700/mesa_corpus.py\n"
        + notes + "\n".join(expect) + "\n")
    shutil.rmtree(dst, ignore_errors=True)
    tmpdst.rename(dst)


def depth_units(info):
    """The texture units the harness gave a depth texture (its shadow samplers)."""
    return {int(u) for u in re.findall(r"^INFO depth_texture unit=(\d+)$", info, re.M)}


def vs_config(c, alpha):
    st = c["stages"]["vs"]
    regs = context_regs(st["regs"])
    res = regs.get(0x028868)
    if res is None:
        raise Skip("no SQ_PGM_RESOURCES_VS")
    lines = [f"# Mesa r600 vertex shader: three vertices, R0.x = the vertex index\nthreads = 3\n"]
    lines += stage_common(st, c["vs"][1], c["base"], alpha, res, depth_units(c["info"]))
    lines.append("[[gpr]]\nreg = 0\nvalues = [[0, 0, 0, 0], [1, 0, 0, 0], [2, 0, 0, 0]]\n")
    words = [int.from_bytes(c["fetch"][0][i:i + 4], "little") for i in range(0, len(c["fetch"][0]), 4)]
    lines.append(f"fetch_shader_words = {hexw(words)}\n")
    start = int(c["fetch"][1].get("resource_start", 0))
    for i, data in sorted(c["vbs"].items()):
        if data is None:
            raise Skip(f"vertex buffer {i} not mapped")
        lines.append(f"[[fetch_constant]]\nid = {start + i}\nstride = {c['strides'][i]}\n"
                     f"data = {hexw(data)}\n")
    return order_toml(lines)


def order_toml(lines):
    """Top-level keys before the first [[table]]."""
    top = [l for l in lines if not l.startswith("[")]
    tables = [l for l in lines if l.startswith("[")]
    return "".join(top + tables)


def ps_config(c, alpha, slots):
    st = c["stages"]["ps"]
    regs = context_regs(st["regs"])
    res = regs.get(0x028850)
    if res is None:
        raise Skip("no SQ_PGM_RESOURCES_PS")
    lines = ["# Mesa r600 pixel shader: one 2x2 quad, x and y from the lower left\ngrid = [2, 2]\n"]
    lines += stage_common(st, c["ps"][1], c["base"], alpha, res, depth_units(c["info"]))
    for i, inp in enumerate(c["ps"][1]["inputs"]):
        cntl = regs.get(0x028644 + 4 * i)
        sem = (inp["name"], inp["sid"])
        if inp["name"] == POSITION:
            vals = [[x + 0.5, y + 0.5, 0.5, 1.0] for y in range(2) for x in range(2)]
            lines.append(f"[[gpr]]\nreg = {inp['gpr']}\nvalues = {vals}\n")
            continue
        if inp["name"] == FACE:
            raise Skip("gl_FrontFacing input")
        comp4 = slots.get((sem, 0))
        if comp4 is None:
            raise Skip(f"pixel input {sem} has no vertex output")
        if cntl is not None and (cntl & 0xFF) != inp["spi_sid"]:
            raise Skip(f"SPI_PS_INPUT_CNTL_{i} semantic {cntl & 0xFF} is not input {i}'s")
        vals = ["0x%08x" % (0 if x is None else x) for x in comp4]
        lines.append(f"[[gpr]]\nreg = {inp['gpr']}\nvalues = [{', '.join(repr(v) for v in vals)}]\n")
    # per-thread: the same values for all four pixels
    fixed = []
    for l in lines:
        m = re.match(r"\[\[gpr\]\]\nreg = (\d+)\nvalues = \[('0x.*)\]\n", l)
        if m:
            row = "[" + m.group(2).replace("'", '"') + "]"
            l = f"[[gpr]]\nreg = {m.group(1)}\nvalues = [{', '.join([row] * 4)}]\n"
        fixed.append(l)
    return order_toml(fixed)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("shaders", type=pathlib.Path)
    ap.add_argument("dumps", type=pathlib.Path)
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--only", help="one program (path under shaders, no suffix)")
    ap.add_argument("--cache", type=pathlib.Path,
                    help="keep llvmpipe's outputs here (keyed by the harness's inputs)")
    a = ap.parse_args()
    here = pathlib.Path(__file__).resolve().parent
    harness = pathlib.Path(tempfile.gettempdir()) / "wavesim_shader_test_llvmpipe"
    subprocess.run(["cc", "-O2", "-o", str(harness), str(here.parent / "mesa/shader_test.c"),
                    "-lEGL"], check=True)
    env = dict(os.environ, LIBGL_ALWAYS_SOFTWARE="1", GALLIUM_DRIVER="llvmpipe",
               EGL_PLATFORM="surfaceless")
    for k in ("LD_PRELOAD", "LD_LIBRARY_PATH", "LIBGL_DRIVERS_PATH", "MESA_LOADER_DRIVER_OVERRIDE"):
        env.pop(k, None)
    a.out.mkdir(parents=True, exist_ok=True)
    if a.cache:
        a.cache.mkdir(parents=True, exist_ok=True)
    linked = None
    for chip in CHIPS:
        ok = {l.split(":")[0] for l in (a.dumps / chip / "results.txt").read_text().splitlines()
              if l.endswith(": linked")}
        linked = ok if linked is None else linked & ok
    all_rel = sorted(l.split(":")[0] for l in
                     (a.dumps / "rv770" / "results.txt").read_text().splitlines())
    skipped = []
    done = 0
    for rel in all_rel:
        if a.only and rel != a.only:
            continue
        if rel not in linked:
            why = [l for l in (a.dumps / "rv770" / "results.txt").read_text().splitlines()
                   if l.startswith(rel + ":")]
            skipped.append(f"{rel}: r600: {why[0].split(':', 1)[1].strip()[:160] if why else '?'}")
            continue
        try:
            convert(rel, a.shaders, a.dumps, a.out, str(harness), env, a.cache)
            done += 1
        except (Skip, subprocess.TimeoutExpired) as e:
            shutil.rmtree(a.out / (rel.replace("/", "__") + ".tmp"), ignore_errors=True)
            skipped.append(f"{rel}: {e}")
    if not a.only:
        (a.out / "skipped.txt").write_text("".join(s + "\n" for s in skipped))
    print(f"{done} programs written to {a.out}, {len(skipped)} skipped")
    for s in skipped[:20]:
        print("  skipped", s)


if __name__ == "__main__":
    main()
