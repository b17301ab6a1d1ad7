#!/usr/bin/env python3
"""Turns shader-db's GLSL fragment shaders into Vulkan pipelines for tests/radv_shader_db.rs.

shader-db (https://gitlab.freedesktop.org/mesa/shader-db, the karolherbst/shader-db mirror) holds
GLSL programs dumped from games and benchmarks as piglit shader_test files. Each program's
fragment shader is rewritten for Vulkan GLSL 4.50 and compiled with glslangValidator -V:

- `#version` becomes 450; `#extension` lines are dropped (450 has what they enabled, or the
  compile fails and the program is listed as not compiling).
- Words GLSL 4.50 reserves that old shaders use as names (`sample`, `filter`, `texture` before
  1.30, ...) are renamed `ws_<word>`; the GLSL 1.10/1.20 texture functions (`texture2D`,
  `texture2DProj`, `texture2DLod`, `textureCube`, `shadow2D`, ...) become `texture`,
  `textureProj`, `textureLod`, ...; `shadow2D*(...)` becomes `vec4(texture*(...))` (GLSL 1.20
  returns a vec4 there).
- Loose (non-opaque) uniforms stay where they are; glslang's `-R --sdub` gathers them into one
  uniform buffer at set 0, binding 0 (std140). Each sampler uniform gets
  `layout(set = 1, binding = K)`, K counting from 0 in declaration order.
- Inputs (`varying`, `in`) get `layout(location = L)` in declaration order; the compatibility
  inputs `gl_Color`, `gl_SecondaryColor` and `gl_TexCoord[]` become declared inputs.
- Outputs: `gl_FragColor` and `gl_FragData[]` become `layout(location = 0) out vec4
  ws_FragData[N]`; declared `out` variables without a location get consecutive ones from 0.
  Every output is set to zero at the start of `main`: components a shader leaves unwritten are
  undefined in Vulkan (ACO exports whatever VGPR it picked, lavapipe zeros).
- Rectangle textures become 2D textures read through helpers that divide the coordinate by
  textureSize (exact for the 64x64 texture the test binds).
- Named uniform blocks become std140 buffers in set 2, binding K in declaration order.
- Kept: programs whose samplers are 2D, cube, 3D, 1D or 2D shadow samplers (SAMPLER_TYPES: the
  test binds a texture of each of those types); dual-source
  outputs, input interface blocks and the compatibility-profile state (gl_Fog, the
  fixed-function matrices and lights) are not converted. The source goes through
  `glslangValidator -E` first, so that macros are expanded before the rewrite.

The vertex shader of each pipeline is generated: two triangles covering the target
(gl_VertexIndex 0..5) and, per fragment input, a value affine in the clip-space position
(float components in [0.05, 0.95]) or, for integer inputs (flat), a small constant. The uniform
buffer is filled from glslang's reflection (`-q`): every dword a float 0.1 + 0.8 * frac(k *
0.618034) (k: the dword's index), then active int/uint/bool members small integers (1 + k % 3;
bools 1), so that loop counts stay small.

Writes corpus/radv/shader-db/: NAME.frag.spv, NAME.vert.spv, NAME.ubo (the uniform buffer's
bytes, when the shader has one), NAME.txt (`ubo BYTES`, `sampler BINDING TYPE COUNT` lines,
and `no_colour_output` for a shader that writes no colour: Vulkan leaves its attachment
undefined, and RADV's CB then writes nothing) and
status.txt (one line per shader-db program: NAME, then `ok` or why it was not kept).
The lavapipe goldens (NAME.png) come from tools/radv/shader_db_goldens.sh.

Usage: tools/radv/shader_db.py SHADER_DB_CHECKOUT
Needs: glslangValidator (Debian 12's glslang-tools, glslang 12).
"""

import hashlib
import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "corpus", "radv", "shader-db")

# Reserved in GLSL 4.50 (GLSL 4.50 spec 3.6 "Keywords") but legal names in GLSL 1.10-1.30/4.00.
RESERVED = [
    "sampler", "sample", "filter", "input", "output", "patch", "subroutine", "buffer", "shared",
    "coherent", "volatile", "restrict", "readonly", "writeonly", "precise", "resource",
    "common", "partition", "active", "superp", "namespace", "using", "packed", "half",
    "fixed", "hvec2", "hvec3", "hvec4", "fvec2", "fvec3", "fvec4", "image1D", "image2D",
    "image3D", "cast", "external", "interface", "noinline", "public", "static", "sizeof",
]

RECT_HELPERS = """
vec4 ws_rect(sampler2D s, vec2 c) { return texture(s, c / vec2(textureSize(s, 0))); }
vec4 ws_rect_proj(sampler2D s, vec3 c) { return ws_rect(s, c.xy / c.z); }
vec4 ws_rect_proj(sampler2D s, vec4 c) { return ws_rect(s, c.xy / c.w); }
vec4 ws_rect_shadow(sampler2DShadow s, vec3 c) {
  return vec4(texture(s, vec3(c.xy / vec2(textureSize(s, 0)), c.z)));
}
vec4 ws_rect_shadow_proj(sampler2DShadow s, vec4 c) { return ws_rect_shadow(s, c.xyz / c.w); }
"""

# Old texture functions (GLSL 1.20 8.7) -> their GLSL 1.30+ names.
TEXTURE_FUNCS = [
    ("texture2DProjLod", "textureProjLod"), ("texture2DProj", "textureProj"),
    ("texture2DLod", "textureLod"), ("texture2DGradARB", "textureGrad"),
    ("texture2DGrad", "textureGrad"), ("texture2D", "texture"),
    ("texture1DProjLod", "textureProjLod"), ("texture1DProj", "textureProj"),
    ("texture1DLod", "textureLod"), ("texture1D", "texture"),
    ("texture3DProjLod", "textureProjLod"), ("texture3DProj", "textureProj"),
    ("texture3DLod", "textureLod"), ("texture3D", "texture"),
    ("textureCubeLod", "textureLod"), ("textureCube", "texture"),
]
SHADOW_FUNCS = [
    ("shadow2DProjLod", "textureProjLod"), ("shadow2DProj", "textureProj"),
    ("shadow2DLod", "textureLod"), ("shadow2D", "texture"),
    ("shadow1DProj", "textureProj"), ("shadow1D", "texture"),
]

TYPE_COMPONENTS = {
    "float": ("f", 1), "vec2": ("f", 2), "vec3": ("f", 3), "vec4": ("f", 4),
    "int": ("i", 1), "ivec2": ("i", 2), "ivec3": ("i", 3), "ivec4": ("i", 4),
    "uint": ("u", 1), "uvec2": ("u", 2), "uvec3": ("u", 3), "uvec4": ("u", 4),
}
MATRIX_COLUMNS = {"mat2": ("vec2", 2), "mat3": ("vec3", 3), "mat4": ("vec4", 4)}

# GL type enums of glslang's reflection that hold integers (GL 4.6 table 7.3).
INT_TYPES = {0x1404: 1, 0x8B53: 2, 0x8B54: 3, 0x8B55: 4, 0x1405: 1, 0x8DC6: 2, 0x8DC7: 3,
             0x8DC8: 4}
BOOL_TYPES = {0x8B56: 1, 0x8B57: 2, 0x8B58: 3, 0x8B59: 4}

# The sampler types the test binds a texture for (tests/radv_shader_db.rs `Texture`).
SAMPLER_TYPES = ["sampler2D", "samplerCube", "sampler3D", "sampler1D", "sampler2DShadow"]

QUALS = r"(?:(?:flat|smooth|noperspective|centroid|invariant|highp|mediump|lowp)\s+)*"


def sections(text):
    parts = re.split(r"^\[(.*)\]\s*$", text, flags=re.M)
    return [(parts[i].strip(), parts[i + 1]) for i in range(1, len(parts), 2)]


class Unsupported(Exception):
    pass


def rewrite(src):
    """The fragment shader for Vulkan: (source, inputs [(location, type, count)], samplers
    [(binding, type, count)], whether it writes a colour)."""
    m = re.search(r"^\s*#version\s+(\d+)", src, flags=re.M)
    version = int(m.group(1)) if m else 110
    src = re.sub(r"^\s*#version.*$", "", src, flags=re.M)
    src = re.sub(r"^\s*#extension.*$", "", src, flags=re.M)
    # Rectangle textures (unnormalized coordinates) become 2D textures addressed through
    # helpers dividing by the size: exact for the corpus's 64x64 texture.
    rects = re.findall(r"\buniform\s+(?:(?:highp|mediump|lowp)\s+)?sampler2DRect(?:Shadow)?\s+"
                       r"(\w+)", src)
    for r in rects:
        src = re.sub(r"\b(texture|textureLod)\s*\(\s*%s\b" % r, r"ws_rect(%s" % r, src)
        src = re.sub(r"\btextureSize\s*\(\s*%s\s*\)" % r, "textureSize(%s, 0)" % r, src)
        src = re.sub(r"\btextureProj\s*\(\s*%s\b" % r, r"ws_rect_proj(%s" % r, src)
    if re.search(r"\b(texture2DRect|shadow2DRect|sampler2DRect)", src):
        helpers = RECT_HELPERS
    else:
        helpers = ""
    src = re.sub(r"\bsampler2DRectShadow\b", "sampler2DShadow", src)
    src = re.sub(r"\bsampler2DRect\b", "sampler2D", src)
    src = re.sub(r"\btexture2DRectProj\b", "ws_rect_proj", src)
    src = re.sub(r"\btexture2DRect\b", "ws_rect", src)
    src = re.sub(r"\bshadow2DRectProj\b", "ws_rect_shadow_proj", src)
    src = re.sub(r"\bshadow2DRect\b", "ws_rect_shadow", src)
    if re.search(r"\bgl_(Fog|FrontMaterial|LightSource|ModelView|Projection|Normal|"
                 r"TextureMatrix|FrontLightModel)\w*", src):
        raise Unsupported("compatibility-profile built-in state (gl_Fog, matrices, lights)")
    words = list(RESERVED)
    if version < 130:
        words.append("texture")
    for w in words:
        src = re.sub(r"\b%s\b" % w, "ws_" + w, src)
    for old, new in SHADOW_FUNCS:
        src = re.sub(r"\b%s\s*\(" % old, "ws_shadow_%s(" % new, src)
    for old, new in TEXTURE_FUNCS:
        src = re.sub(r"\b%s\b" % old, new, src)
    # shadowXD(...) returns vec4 in GLSL 1.20: wrap the new call (balanced parentheses).
    while True:
        m = re.search(r"ws_shadow_(\w+)\(", src)
        if not m:
            break
        depth, i = 1, m.end()
        while depth and i < len(src):
            depth += {"(": 1, ")": -1}.get(src[i], 0)
            i += 1
        src = src[:m.start()] + "vec4(%s(%s)" % (m.group(1), src[m.end():i]) + ")" + src[i:]

    if re.search(r"\blayout\s*\([^)]*\bindex\s*=\s*1[^)]*\)\s*out\b", src):
        raise Unsupported("a dual-source output (index = 1): the test does not blend")
    # Named uniform blocks: std140 buffers in set 2, binding K in declaration order.
    blocks = []

    def block(m):
        blocks.append(m.group(1))
        return "layout(std140, set = 2, binding = %d) uniform %s {" % (len(blocks) - 1,
                                                                       m.group(1))

    src = re.sub(r"(?:\blayout\s*\([^)]*\)\s*)?\buniform\s+(\w+)\s*\{", block, src)
    # Samplers: one binding each in set 1.
    samplers = []

    def sampler(m):
        ty, names = m.group(2), [n.strip() for n in m.group(3).split(",")]
        out = []
        for n in names:
            am = re.fullmatch(r"(\w+)\s*(?:\[\s*(\d+)\s*\])?", n)
            if not am:
                raise Unsupported("a sampler declaration %r" % n)
            count = int(am.group(2)) if am.group(2) else 1
            samplers.append((len(samplers), ty, count))
            out.append("layout(set = 1, binding = %d) uniform %s %s;" % (len(samplers) - 1, ty, n))
        return " ".join(out)

    src = re.sub(r"\buniform\s+((?:highp|mediump|lowp)\s+)?(\w*sampler\w+)\s+([^;]+);",
                 sampler, src)

    # Inputs.
    inputs = []
    loc = 0

    def slots(ty, count):
        if ty in MATRIX_COLUMNS:
            return MATRIX_COLUMNS[ty][1] * count
        if ty not in TYPE_COMPONENTS:
            raise Unsupported("an input of type %s" % ty)
        return count

    def inp(m):
        nonlocal loc
        quals, ty, decls = m.group(1), m.group(3), m.group(4)
        out = []
        for d in decls.split(","):
            dm = re.fullmatch(r"\s*(\w+)\s*(?:\[\s*(\d+)\s*\])?\s*", d)
            if not dm:
                raise Unsupported("an input declaration %r" % d)
            count = int(dm.group(2)) if dm.group(2) else 1
            arr = "[%d]" % count if dm.group(2) else ""
            q = quals
            if TYPE_COMPONENTS.get(ty, ("f",))[0] != "f" and "flat" not in q:
                q = "flat " + q
            out.append("layout(location = %d) %sin %s %s%s;" % (loc, q, ty, dm.group(1), arr))
            inputs.append((loc, ty, count if dm.group(2) else 0))
            loc += slots(ty, count)
        return " ".join(out)

    src = re.sub(r"^\s*(" + QUALS + r")(varying|in)\s+(?:(?:highp|mediump|lowp)\s+)?(\w+)"
                 r"\s+([^;]+);", inp, src, flags=re.M)
    for builtin, decl in [("gl_Color", "vec4"), ("gl_SecondaryColor", "vec4")]:
        if re.search(r"\b%s\b" % builtin, src):
            name = "ws_" + builtin[3:]
            src = re.sub(r"\b%s\b" % builtin, name, src)
            src = "layout(location = %d) in %s %s;\n" % (loc, decl, name) + src
            inputs.append((loc, decl, 0))
            loc += 1
    if re.search(r"\bgl_TexCoord\b", src):
        src = re.sub(r"\bgl_TexCoord\b", "ws_TexCoord", src)
        src = "layout(location = %d) in vec4 ws_TexCoord[8];\n" % loc + src
        inputs.append((loc, "vec4", 8))
        loc += 8

    # Outputs.
    uses_data = re.search(r"\bgl_FragData\b", src)
    uses_color = re.search(r"\bgl_FragColor\b", src)
    if uses_data or uses_color:
        n = 1
        for k in re.findall(r"gl_FragData\s*\[\s*(\d+)\s*\]", src):
            n = max(n, int(k) + 1)
        if uses_data and re.search(r"gl_FragData\s*\[\s*[^\d\s]", src):
            n = max(n, 8)
        src = re.sub(r"\bgl_FragColor\b", "ws_FragData[0]", src)
        src = re.sub(r"\bgl_FragData\b", "ws_FragData", src)
        src = "layout(location = 0) out vec4 ws_FragData[%d];\n" % n + src
        init = ["ws_FragData[%d] = vec4(0.0);" % k for k in range(n)]
    else:
        out_loc = 0
        init = []

        def outp(m):
            nonlocal out_loc
            dm = re.fullmatch(r"\s*(\w+)\s*(?:\[\s*(\d+)\s*\])?\s*", m.group(3))
            if not dm:
                raise Unsupported("an output declaration %r" % m.group(3))
            s = "layout(location = %d) %sout %s %s;" % (out_loc, m.group(1), m.group(2),
                                                         m.group(3).strip())
            out_loc += int(dm.group(2)) if dm.group(2) else 1
            init.append("%s = %s(0);" % (dm.group(1), m.group(2)) if not dm.group(2) else
                        "%s = %s[%s](%s);" % (dm.group(1), m.group(2), dm.group(2), ", ".join(
                            ["%s(0)" % m.group(2)] * int(dm.group(2)))))
            return s

        src = re.sub(r"^\s*((?:highp\s+|mediump\s+|lowp\s+|invariant\s+)*)out\s+(\w+)\s+"
                     r"([^;]+);", outp, src, flags=re.M)
    # Components a shader leaves unwritten are undefined in Vulkan (ACO exports whatever VGPR
    # it picked, lavapipe zeros): start main with every output zero.
    m = re.search(r"\bvoid\s+main\s*\(\s*(void)?\s*\)\s*\{", src)
    if not m:
        raise Unsupported("no main()")
    src = src[:m.end()] + " " + " ".join(init) + src[m.end():]
    return "#version 450\n" + helpers + src, inputs, samplers, blocks, bool(init)


def coefficient(name, k):
    h = hashlib.sha256(("%s/%d" % (name, k)).encode()).digest()
    return h[0] / 255.0


def vertex_shader(name, inputs):
    lines = ["#version 450"]
    body = []
    for loc, ty, count in inputs:
        arr = "[%d]" % count if count else ""
        n = max(count, 1)
        if ty in MATRIX_COLUMNS:
            col, ncol = MATRIX_COLUMNS[ty]
            kind, comps = "f", TYPE_COMPONENTS[col][1]
            elems = [(i, c) for i in range(n) for c in range(ncol)]
        else:
            kind, comps = TYPE_COMPONENTS[ty]
            elems = [(i, None) for i in range(n)]
        flat = "flat " if kind != "f" else ""
        lines.append("layout(location = %d) %sout %s o%d%s;" % (loc, flat, ty, loc, arr))
        for i, c in elems:
            target = "o%d" % loc + ("[%d]" % i if count else "") + ("[%d]" % c if c is not None
                                                                     else "")
            vals = []
            for j in range(comps):
                k = loc * 64 + i * 8 + (c or 0) * 4 + j
                if kind == "f":
                    a, b, d = (coefficient(name, 3 * k + e) for e in range(3))
                    # 0.5 + 0.15a'x + 0.15b'y + 0.15d' stays within [0.05, 0.95].
                    vals.append("(0.5 + %.4f * p.x + %.4f * p.y + %.4f)" % (
                        0.3 * a - 0.15, 0.3 * b - 0.15, 0.3 * d - 0.15))
                else:
                    vals.append(str(1 + k % 3) + ("u" if kind == "u" else ""))
            scalar = {"f": "float", "i": "int", "u": "uint"}[kind]
            vt = scalar if comps == 1 else {"f": "vec", "i": "ivec", "u": "uvec"}[kind] + str(comps)
            body.append("  %s = %s(%s);" % (target, vt, ", ".join(vals)))
    lines += [
        "void main() {",
        "  // Two triangles covering the target.",
        "  const vec2 corners[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(-1, 1),",
        "                                  vec2(-1, 1), vec2(1, -1), vec2(1, 1));",
        "  vec2 p = corners[gl_VertexIndex];",
        "  gl_Position = vec4(p, 0.5, 1.0);",
    ] + body + ["}"]
    return "\n".join(lines) + "\n"


def glslang(path, out, extra=()):
    r = subprocess.run(["glslangValidator", "-V", "-g0", "-R", "--sdub", "U", "0", "0"] + list(extra) +
                       [path, "-o", out], capture_output=True, text=True)
    return r.returncode == 0, r.stdout + r.stderr


def reflect_ubo(path):
    """{block name: (size, [(offset, GL type, array size, array stride)])} from glslang's
    reflection (members name their block by its index)."""
    r = subprocess.run(["glslangValidator", "-V", "-R", "--sdub", "U", "0", "0", "-q", path,
                        "-o", os.devnull], capture_output=True, text=True)
    sizes, members = {}, []
    block = False
    for line in r.stdout.splitlines():
        if line.startswith("Uniform block reflection"):
            block = True
        elif line.endswith("reflection:"):
            block = False
        m = re.match(r"(\S+): offset (-?\d+), type ([0-9a-f]+), size (\d+), index (-?\d+)(.*)",
                     line)
        if not m:
            continue
        if block:
            sizes[int(m.group(5))] = (m.group(1), int(m.group(4)))
        elif int(m.group(2)) >= 0:
            stride = re.search(r"arrayStride (\d+)", m.group(6))
            members.append((int(m.group(5)), (int(m.group(2)), int(m.group(3), 16),
                                              int(m.group(4)),
                                              int(stride.group(1)) if stride else 16)))
    return {name: (size, [mem for i, mem in members if i == index])
            for index, (name, size) in sizes.items()}


def ubo_bytes(size, members):
    words = [struct.pack("<f", 0.1 + 0.8 * ((k * 0.618034) % 1.0)) for k in range(size // 4)]
    for offset, ty, count, stride in members:
        comps = INT_TYPES.get(ty) or BOOL_TYPES.get(ty)
        if not comps:
            continue
        for e in range(count):
            for c in range(comps):
                k = (offset + e * stride) // 4 + c
                if k < len(words):
                    v = 1 if ty in BOOL_TYPES else 1 + k % 3
                    words[k] = struct.pack("<I", v)
    return b"".join(words)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sdb = os.path.join(sys.argv[1], "shaders")
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        # The goldens come from shader_db_goldens.sh, known.txt is written by hand.
        if not f.endswith(".png") and f != "known.txt":
            os.remove(os.path.join(OUT, f))
    status = []
    tmp = tempfile.mkdtemp()
    tests = sorted(os.path.relpath(os.path.join(d, f), sdb)
                   for d, _, fs in os.walk(sdb) for f in fs if f.endswith(".shader_test"))
    for rel in tests:
        name = re.sub(r"[^A-Za-z0-9]+", "_", rel[:-len(".shader_test")]).strip("_")
        text = open(os.path.join(sdb, rel), encoding="utf-8", errors="replace").read()
        frags = [body for sec, body in sections(text) if sec == "fragment shader"]
        if len(frags) != 1:
            status.append("%s %s" % (name, "no fragment shader" if not frags else
                                     "several fragment shader objects"))
            continue
        raw = os.path.join(tmp, name + ".orig.frag")
        open(raw, "w").write(frags[0])
        pre = subprocess.run(["glslangValidator", "-E", raw], capture_output=True, text=True)
        if pre.returncode != 0:
            status.append("%s preprocessor: %s" % (name, pre.stdout.strip().splitlines()[-1]))
            continue
        try:
            frag, inputs, samplers, blocks, writes_colour = rewrite(pre.stdout)
        except Unsupported as e:
            status.append("%s not converted: %s" % (name, e))
            continue
        fpath = os.path.join(tmp, name + ".frag")
        open(fpath, "w").write(frag)
        ok, log = glslang(fpath, os.path.join(OUT, name + ".frag.spv"))
        if not ok:
            err = next((l for l in log.splitlines() if l.startswith("ERROR")), log.strip())
            err = re.sub(r"^ERROR: \S+:\d+: ", "", err)
            status.append("%s glslang: %s" % (name, err.strip()))
            continue
        bad = sorted(set(t for _, t, _ in samplers if t not in SAMPLER_TYPES))
        if bad:
            os.remove(os.path.join(OUT, name + ".frag.spv"))
            status.append("%s compiles; not kept: %s (the harness binds %s textures "
                          "only)" % (name, " ".join(bad), ", ".join(SAMPLER_TYPES)))
            continue
        vpath = os.path.join(tmp, name + ".vert")
        open(vpath, "w").write(vertex_shader(name, inputs))
        ok, log = glslang(vpath, os.path.join(OUT, name + ".vert.spv"))
        if not ok:
            sys.exit("%s: the generated vertex shader does not compile:\n%s" % (name, log))
        reflected = reflect_ubo(fpath)
        manifest = []
        if "U" in reflected:
            size, members = reflected["U"]
            open(os.path.join(OUT, name + ".ubo"), "wb").write(ubo_bytes(size, members))
            manifest.append("ubo %d" % size)
        for k, b in enumerate(blocks):
            if b not in reflected:
                continue
            size, members = reflected[b]
            open(os.path.join(OUT, "%s.block%d" % (name, k)), "wb").write(ubo_bytes(size,
                                                                                   members))
            manifest.append("block %d %d" % (k, size))
        manifest += ["sampler %d %s %d" % s for s in samplers]
        if not writes_colour:
            manifest.append("no_colour_output")
        open(os.path.join(OUT, name + ".txt"), "w").write("".join(l + "\n" for l in manifest))
        status.append("%s ok" % name)
    open(os.path.join(OUT, "status.txt"), "w").write("".join(s + "\n" for s in status))
    ok = sum(1 for s in status if s.split()[1] == "ok")
    compiled = ok + sum(1 for s in status if s.split()[1] == "compiles;")
    print("shader_db.py: %d programs, %d compile for Vulkan, %d kept" % (len(status), compiled,
                                                                          ok))


if __name__ == "__main__":
    main()
