#!/usr/bin/env python3
"""Turns shader-db's GLSL vertex shaders into Vulkan pipelines for tests/radv_shader_db_vs.rs.

shader-db (see tools/radv/shader_db.py, whose rewrite helpers this script imports) holds GLSL
programs from games and benchmarks. Here each program's own vertex shader runs; its outputs are
made visible exactly:

- The vertex shader is rewritten for Vulkan GLSL 4.50 as shader_db.py rewrites fragment shaders
  (`#version 450`, reserved words renamed, loose uniforms gathered by glslang's `-R --sdub` into
  the uniform buffer at set 0 binding 0, named uniform blocks in set 2). Compatibility inputs
  (`gl_Vertex`, `gl_Normal`, `gl_Color`, `gl_SecondaryColor`, `gl_MultiTexCoordN`,
  `gl_FogCoord`) become declared attributes, the compatibility matrices
  (`gl_ModelViewProjectionMatrix`, `gl_NormalMatrix`, `gl_TextureMatrix[]`, ...) loose uniforms,
  `ftransform()` their product, and compatibility outputs (`gl_FrontColor`, `gl_TexCoord[]`,
  ...) declared outputs; `gl_VertexID`/`gl_InstanceID` become `gl_VertexIndex`/
  `gl_InstanceIndex` (equal here: the draw's first vertex and instance are 0).
- `gl_Position`, `gl_PointSize` and `gl_ClipDistance[]` become ordinary outputs (`ws_Position`,
  ...): the program computes them as before, and a wrapper `main` (the program's is renamed
  `ws_main`) then places vertex k (k = instance * 32 + vertex) as a point of size 1 on the
  centre of pixel (k % 16, k / 16) of a 16x4 target. Every output gets a location in
  declaration order and the `flat` qualifier, and is zero before `ws_main` runs (unwritten
  outputs are undefined in Vulkan).
- Attributes get locations in declaration order and are fed from one vertex buffer
  (R32G32B32A32 SFLOAT/SINT/UINT per location, interleaved, 16 bytes each): floats
  0.05 + 0.9 * frac(hash), integers 0 or 1 (they index arrays in skinning shaders).
- Generated fragment shaders declare the same outputs as flat inputs and write each output
  slot (one location: a vector, an array element or a matrix column) to an R32G32B32A32_SFLOAT
  target, zero-padded (integers converted to float: exact below 2^24); at most 8 targets a
  pass (maxColorAttachments), so a program with more slots draws several passes
  (NAME.passK.frag.spv).
- Output interface blocks with an instance name become one output per member
  (`ws_<instance>_<member>`). Programs whose vertex shader samples textures, uses structs as
  outputs, or the fixed-function lighting/fog state are not kept (status.txt says which).

Writes corpus/radv/shader-db-vs/: NAME.vert.spv, NAME.passK.frag.spv, NAME.vb (the vertex
buffer), NAME.ubo / NAME.blockK (as shader_db.py), NAME.txt (`ubo`, `block`, `attr LOC KIND`,
`slot LOC KIND TEXT` in target order, `passes N`) and status.txt. The lavapipe goldens
(NAME.out) come from tools/radv/shader_db_vs_goldens.sh. Programs whose vertex shader compiles to
the same SPIR-V as an earlier program's are listed as such and not kept again.

Usage: tools/radv/shader_db_vs.py SHADER_DB_CHECKOUT
Needs: glslangValidator (Debian 12's glslang-tools).
"""

import hashlib
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shader_db import (MATRIX_COLUMNS, QUALS, RESERVED, TYPE_COMPONENTS, Unsupported,  # noqa: E402
                       glslang, reflect_ubo, sections, ubo_bytes)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "corpus", "radv", "shader-db-vs")
VERTICES, INSTANCES, TARGET_W, TARGET_H = 32, 2, 16, 4
MAX_TARGETS = 8

COMPAT_INPUTS = [("gl_Vertex", "vec4"), ("gl_Normal", "vec3"), ("gl_Color", "vec4"),
                 ("gl_SecondaryColor", "vec4"), ("gl_FogCoord", "float")] + [
    ("gl_MultiTexCoord%d" % k, "vec4") for k in range(8)]
COMPAT_UNIFORMS = [("gl_ModelViewProjectionMatrix", "mat4", ""), ("gl_ModelViewMatrix", "mat4", ""),
                   ("gl_ProjectionMatrix", "mat4", ""), ("gl_NormalMatrix", "mat3", ""),
                   ("gl_ModelViewMatrixInverseTranspose", "mat4", ""),
                   ("gl_ModelViewMatrixTranspose", "mat4", ""),
                   ("gl_ModelViewMatrixInverse", "mat4", ""),
                   ("gl_TextureMatrix", "mat4", "[8]")]
COMPAT_OUTPUTS = [("gl_FrontColor", "vec4", ""), ("gl_BackColor", "vec4", ""),
                  ("gl_FrontSecondaryColor", "vec4", ""), ("gl_BackSecondaryColor", "vec4", ""),
                  ("gl_TexCoord", "vec4", "[8]"), ("gl_FogFragCoord", "float", ""),
                  ("gl_ClipVertex", "vec4", ""), ("gl_Position", "vec4", ""),
                  ("gl_PointSize", "float", ""), ("gl_ClipDistance", "float", "[8]")]


def rewrite(src):
    """The vertex shader for Vulkan: (source, inputs [(location, type, count)], outputs
    [(location, type, count, name)], uniform block names)."""
    m = re.search(r"^\s*#version\s+(\d+)", src, flags=re.M)
    version = int(m.group(1)) if m else 110
    src = re.sub(r"^\s*#version.*$", "", src, flags=re.M)
    src = re.sub(r"^\s*#extension.*$", "", src, flags=re.M)
    if re.search(r"\bsampler\w*\b", src):
        raise Unsupported("the vertex shader samples textures")
    if re.search(r"\bgl_(Fog|FrontMaterial|BackMaterial|LightSource|LightModel|FrontLight|"
                 r"BackLight|Point|ClipPlane|EyePlane|ObjectPlane)\w*", src.replace(
                     "gl_FogCoord", "").replace("gl_FogFragCoord", "")):
        raise Unsupported("compatibility-profile lighting, fog or plane state")
    # Output interface blocks (`out Block { T m; ... } inst;`) become one output per member,
    # ws_<inst>_<member>, in member order.
    renames = []

    def flatten(m):
        inst = m.group(3)
        decls = []
        for mem in re.findall(r"([^;{}]+);", m.group(2)):
            mm = re.fullmatch(r"\s*" + QUALS + r"(\w+)\s+(\w+)\s*(\[\s*\d+\s*\])?\s*", mem)
            if not mm:
                raise Unsupported("an output block member %r" % mem.strip())
            decls.append("out %s ws_%s_%s%s;" % (mm.group(1), inst, mm.group(2),
                                                 mm.group(3) or ""))
            renames.append((inst, mm.group(2)))
        return "\n" + "\n".join(decls) + "\n"

    src = re.sub(r"(?:\blayout\s*\([^)]*\)\s*)?\bout\s+(\w+)\s*\{([^}]*)\}\s*(\w+)\s*;",
                 flatten, src)
    for inst, mem in renames:
        src = re.sub(r"\b%s\s*\.\s*%s\b" % (inst, mem), "ws_%s_%s" % (inst, mem), src)
    if re.search(r"\b(out|varying)\s+\w+\s*\{", src):
        raise Unsupported("an output interface block without an instance name")
    words = list(RESERVED)
    if version < 130:
        words.append("texture")
    for w in words:
        src = re.sub(r"\b%s\b" % w, "ws_" + w, src)
    # Explicit locations are replaced by the script's.
    src = re.sub(r"\blayout\s*\(\s*location\s*=\s*\d+\s*\)\s*(?=(in|out|attribute|varying|"
                 r"flat|smooth|noperspective|centroid|invariant)\b)", "", src)
    # Redeclarations of built-in outputs (gl_ClipDistance[N], invariant gl_Position).
    src = re.sub(r"^\s*(?:out\s+float\s+gl_ClipDistance\s*\[\s*\d*\s*\]|invariant\s+gl_Position)"
                 r"\s*;", "", src, flags=re.M)
    src = re.sub(r"\bftransform\s*\(\s*\)", "(gl_ModelViewProjectionMatrix * gl_Vertex)", src)
    src = re.sub(r"\bgl_VertexID\b", "gl_VertexIndex", src)
    src = re.sub(r"\bgl_InstanceID\b", "gl_InstanceIndex", src)
    decls = []
    for name, ty in COMPAT_INPUTS:
        if re.search(r"\b%s\b" % name, src):
            src = re.sub(r"\b%s\b" % name, "ws_" + name[3:], src)
            decls.append("attribute %s ws_%s;" % (ty, name[3:]))
    for name, ty, arr in COMPAT_UNIFORMS:
        if re.search(r"\b%s\b" % name, src):
            src = re.sub(r"\b%s\b" % name, "ws_" + name[3:], src)
            decls.append("uniform %s ws_%s%s;" % (ty, name[3:], arr))
    for name, ty, arr in COMPAT_OUTPUTS:
        if name == "gl_TexCoord" and not re.search(r"\bgl_TexCoord\s*\[\s*[^\d\s]", src):
            # Only as many texture coordinates as the shader indexes with constants.
            used = [int(k) for k in re.findall(r"\bgl_TexCoord\s*\[\s*(\d+)\s*\]", src)]
            arr = "[%d]" % (max(used) + 1) if used else arr
        if re.search(r"\b%s\b" % name, src):
            src = re.sub(r"\b%s\b" % name, "ws_" + name[3:], src)
            decls.append("varying %s ws_%s%s;" % (ty, name[3:], arr))
    if re.search(r"\bgl_(?!VertexIndex\b|InstanceIndex\b)\w+", src):
        raise Unsupported("the built-in %s" % re.search(r"\bgl_(?!VertexIndex\b|InstanceIndex\b)"
                                                          r"\w+", src).group(0))
    src = "\n".join(decls) + "\n" + src

    blocks = []

    def block(m):
        blocks.append(m.group(1))
        return "layout(std140, set = 2, binding = %d) uniform %s {" % (len(blocks) - 1,
                                                                       m.group(1))

    src = re.sub(r"(?:\blayout\s*\([^)]*\)\s*)?\buniform\s+(\w+)\s*\{", block, src)

    def slots(ty, count):
        if ty in MATRIX_COLUMNS:
            return MATRIX_COLUMNS[ty][1] * max(count, 1)
        if ty not in TYPE_COMPONENTS:
            raise Unsupported("an input or output of type %s" % ty)
        return max(count, 1)

    def declarations(kind, keywords, out_list):
        loc = 0

        def decl(m):
            nonlocal loc
            ty, names = m.group(3), m.group(4)
            res = []
            for d in names.split(","):
                dm = re.fullmatch(r"\s*(\w+)\s*(?:\[\s*(\d+)\s*\])?\s*", d)
                if not dm:
                    raise Unsupported("a declaration %r" % d)
                count = int(dm.group(2)) if dm.group(2) else 0
                arr = "[%d]" % count if dm.group(2) else ""
                q = "flat " if kind == "out" or TYPE_COMPONENTS.get(ty, ("f",))[0] != "f" else ""
                if kind == "in":
                    q = ""
                res.append("layout(location = %d) %s%s %s %s%s;" % (loc, q, kind, ty,
                                                                     dm.group(1), arr))
                out_list.append((loc, ty, count, dm.group(1)))
                loc += slots(ty, count)
            return " ".join(res)

        return re.sub(r"^\s*(" + QUALS + r")(" + keywords + r")\s+(?:(?:highp|mediump|lowp)\s+)?"
                      r"(\w+)\s+([^;]+);", decl, src_holder[0], flags=re.M)

    inputs, outputs = [], []
    src_holder = [src]
    src_holder[0] = declarations("in", "attribute|in", inputs)
    src_holder[0] = declarations("out", "varying|out", outputs)
    src = src_holder[0]
    if not any(o[3] == "ws_Position" for o in outputs):
        raise Unsupported("no gl_Position")
    m = re.search(r"\bvoid\s+main\s*\(\s*(void)?\s*\)", src)
    if not m:
        raise Unsupported("no main()")
    src = src[:m.start()] + "void ws_main()" + src[m.end():]
    init = []
    for _, ty, count, name in outputs:
        if count:
            init.append("%s = %s[%d](%s);" % (name, ty, count, ", ".join(["%s(0)" % ty] * count)))
        else:
            init.append("%s = %s(0);" % (name, ty))
    wrapper = """
void main() {
  %s
  ws_main();
  // Vertex k of the draw on the centre of pixel (k %% %d, k / %d) of the %dx%d target.
  int k = gl_InstanceIndex * %d + gl_VertexIndex;
  gl_Position = vec4((float(k %% %d) + 0.5) / %.1f - 1.0, (float(k / %d) + 0.5) / %.1f - 1.0,
                     0.5, 1.0);
  gl_PointSize = 1.0;
}
""" % (" ".join(init), TARGET_W, TARGET_W, TARGET_W, TARGET_H, VERTICES, TARGET_W,
       TARGET_W / 2, TARGET_W, TARGET_H / 2)
    return "#version 450\n" + src + wrapper, inputs, outputs, blocks


def output_slots(outputs):
    """[(location, kind, GLSL expression of the slot's value)] in location order."""
    res = []
    for loc, ty, count, name in outputs:
        if ty in MATRIX_COLUMNS:
            col, ncol = MATRIX_COLUMNS[ty]
        else:
            col, ncol = ty, 0
        kind, comps = TYPE_COMPONENTS[col]
        for i in range(max(count, 1)):
            for c in range(max(ncol, 1)):
                expr = name + ("[%d]" % i if count else "") + ("[%d]" % c if ncol else "")
                pad = ", 0.0" * (4 - comps)
                if kind == "f":
                    value = "vec4(%s%s)" % (expr, pad)
                else:
                    vt = "float" if comps == 1 else "vec%d" % comps
                    value = "vec4(%s(%s)%s)" % (vt, expr, pad)
                at = loc + i * max(ncol, 1) + c
                res.append((at, kind, value, expr))
    return res


def fragment_shader(outputs, slots):
    lines = ["#version 450"]
    for loc, ty, count, name in outputs:
        arr = "[%d]" % count if count else ""
        lines.append("layout(location = %d) flat in %s %s%s;" % (loc, ty, name, arr))
    for k in range(len(slots)):
        lines.append("layout(location = %d) out vec4 ws_target%d;" % (k, k))
    lines.append("void main() {")
    for k, (_, _, value, _) in enumerate(slots):
        lines.append("  ws_target%d = %s;" % (k, value))
    lines.append("}")
    return "\n".join(lines) + "\n"


def attribute_value(name, loc, vertex, comp, kind):
    h = hashlib.sha256(("%s/%d/%d/%d" % (name, loc, vertex, comp)).encode()).digest()
    if kind == "f":
        return struct.pack("<f", 0.05 + 0.9 * (h[0] | h[1] << 8) / 65536.0)
    return struct.pack("<I", h[0] & 1)


def vertex_buffer(name, attrs):
    out = b""
    for v in range(VERTICES):
        for loc, kind in attrs:
            out += b"".join(attribute_value(name, loc, v, c, kind) for c in range(4))
    return out


def attribute_locations(inputs):
    res = []
    for loc, ty, count, _ in inputs:
        if ty in MATRIX_COLUMNS:
            col, ncol = MATRIX_COLUMNS[ty]
        else:
            col, ncol = ty, 1
        kind = TYPE_COMPONENTS[col][0]
        for k in range(max(count, 1) * ncol):
            res.append((loc + k, kind))
    return res


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sdb = os.path.join(sys.argv[1], "shaders")
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        # The goldens come from shader_db_vs_goldens.sh, known.txt is written by hand.
        if not f.endswith(".out") and f != "known.txt":
            os.remove(os.path.join(OUT, f))
    status = []
    seen = {}
    tmp = tempfile.mkdtemp()
    tests = sorted(os.path.relpath(os.path.join(d, f), sdb)
                   for d, _, fs in os.walk(sdb) for f in fs if f.endswith(".shader_test"))
    for rel in tests:
        name = re.sub(r"[^A-Za-z0-9]+", "_", rel[:-len(".shader_test")]).strip("_")
        text = open(os.path.join(sdb, rel), encoding="utf-8", errors="replace").read()
        verts = [body for sec, body in sections(text) if sec == "vertex shader"]
        if len(verts) != 1:
            status.append("%s %s" % (name, "no vertex shader" if not verts else
                                     "several vertex shader objects"))
            continue
        raw = os.path.join(tmp, name + ".orig.vert")
        open(raw, "w").write(verts[0])
        pre = subprocess.run(["glslangValidator", "-E", raw], capture_output=True, text=True)
        if pre.returncode != 0:
            status.append("%s preprocessor: %s" % (name, pre.stdout.strip().splitlines()[-1]))
            continue
        try:
            vert, inputs, outputs, blocks = rewrite(pre.stdout)
            attrs = attribute_locations(inputs)
            slots = output_slots(outputs)
        except Unsupported as e:
            status.append("%s not converted: %s" % (name, e))
            continue
        vpath = os.path.join(tmp, name + ".vert")
        open(vpath, "w").write(vert)
        ok, log = glslang(vpath, os.path.join(OUT, name + ".vert.spv"))
        if not ok:
            err = next((l for l in log.splitlines() if l.startswith("ERROR")), log.strip())
            err = re.sub(r"^ERROR: \S+:\d+: ", "", err)
            status.append("%s glslang: %s" % (name, err.strip()))
            continue
        # Programs sharing a vertex shader (same SPIR-V) are kept once.
        digest = hashlib.sha256(open(os.path.join(OUT, name + ".vert.spv"), "rb").read()).digest()
        if digest in seen:
            os.remove(os.path.join(OUT, name + ".vert.spv"))
            status.append("%s same vertex shader as %s" % (name, seen[digest]))
            continue
        seen[digest] = name
        passes = [slots[k:k + MAX_TARGETS] for k in range(0, len(slots), MAX_TARGETS)]
        for p, chunk in enumerate(passes):
            fpath = os.path.join(tmp, "%s.pass%d.frag" % (name, p))
            open(fpath, "w").write(fragment_shader(outputs, chunk))
            ok, log = glslang(fpath, os.path.join(OUT, "%s.pass%d.frag.spv" % (name, p)))
            if not ok:
                sys.exit("%s: the generated fragment shader does not compile:\n%s" % (name, log))
        reflected = reflect_ubo(vpath)
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
        manifest += ["attr %d %s" % a for a in attrs]
        open(os.path.join(OUT, name + ".vb"), "wb").write(vertex_buffer(name, attrs))
        manifest += ["slot %d %s %s" % (loc, kind, expr) for loc, kind, _, expr in slots]
        manifest.append("passes %d" % len(passes))
        open(os.path.join(OUT, name + ".txt"), "w").write("".join(l + "\n" for l in manifest))
        status.append("%s ok" % name)
    open(os.path.join(OUT, "status.txt"), "w").write("".join(s + "\n" for s in status))
    ok = sum(1 for s in status if s.split()[1] == "ok")
    print("shader_db_vs.py: %d programs, %d kept" % (len(status), ok))


if __name__ == "__main__":
    main()
