#!/usr/bin/env python3
"""corpus/agx/gl25glsl: application GLSL (shader-db's public collection, piglit's shader_tests)
through Mesa 25.0.7's own GLSL compiler and linker and its asahi compiler, fragment programs
linked as the gallium driver links them (tools/agx/glsl_graphics.c --glsl, glsl_mesa_front.cpp),
with llvmpipe's answer for the same GLSL and the same inputs.

    tools/agx/gl25_glsl_corpus.py MESA_NEW_WORKDIR OUT PREFIX=DIR... [--limit N]

Each DIR is searched for *.shader_test with a [vertex shader] and/or a [fragment shader] (and no
other stage); job names are PREFIX_relative_path. For each program:

- glsl_graphics --glsl compiles the fragment shader with Mesa 25.0.7's GLSL front end and links
  it as a separable program (glCreateShaderProgramv): linked with the program's own vertex
  shader, Mesa's linker removes fragment inputs the vertex shader writes with equal values
  (nir_link_opt_varyings) and packs the rest around them, which a feed holding each input at its
  own constant cannot reproduce; it then compiles the fragment stage for asahi (prolog, main part, epilog, end-of-tile program), printing
  the fragment inputs as the linker placed them, the coefficient registers, the default-block
  uniforms (each at its own vec4 slots of uniform block 0, whose address is uniform half 16) and
  the samplers (texture state index, sampler state index + 1);
- the inputs are held constant (tools/agx/mesa_corpus.py's fragment_feed: the value of each
  (slot, component), coefficient planes [0, 0, value]) and the uniforms get
  tools/agx/mesa_shader_test.c's values (the k-th active uniform's component c of element e:
  (k + 1) + (4e + c + 1) / 64, integers 1000 (k + 1) + 4e + c, booleans true), k numbered by
  llvmpipe's run of the original program;
- llvmpipe draws the same fragment shader behind the feeding vertex shader (mesa_corpus.py's
  fragment_reference); OUT/NAME.ref holds its pixels `X Y R G B A`.

Each program's vertex shader is compiled alone too (glsl_graphics --glsl-vertex: a hardware
vertex shader, attributes from the prolog, outputs through the UVS; gl_Vertex and generic
attributes fed the harness's three vertices, the other built-in attributes their current values,
the fixed-function matrices the identity, the vertex colour clamped as GL's compatibility profile
does), written as NAME.vs.bin / NAME.vs.toml with llvmpipe's transform feedback of gl_Position and
every output in NAME.vs.ref (`VERTEX: SLOT=WORD...`, wavesim's output slots).

tools/agx/gl25_glsl_excluded.txt names programs (NAME) and vertex shaders (NAME.vs) left out on
purpose, with why. A program without a job is listed in OUT/summary.txt with the reason (the compiler's own message,
or the harness's). Not run in CI: needs tools/mesa/build_new.sh's tree and Debian's llvmpipe.
"""
import argparse
import os
import pathlib
import re
import resource
import struct
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import mesa_corpus  # noqa: E402  (fragment_feed, fragment_reference, Problem)

W = H = 16
WAVESIM = os.environ.get("WAVESIM", str(HERE.parent.parent / "target/release/wavesim"))
# gl_varying_slot (src/compiler/shader_enums.h) below VARYING_SLOT_VAR0.
SLOT_NAMES = {0: "POS", 1: "COL0", 2: "COL1", 3: "FOGC", 12: "PSIZ", 13: "BFC0", 14: "BFC1",
              24: "FACE", 25: "PNTC"}
SLOT_NAMES.update({4 + i: "TEX%d" % i for i in range(8)})
VECTOR = re.compile(r"^(|i|u|b)(vec([234])|float|int|uint|bool)$")
MATRIX = re.compile(r"^mat([234])$")


def slot_name(n):
    if n >= 32:
        return "VARYING_SLOT_VAR%d" % (n - 32)
    if n not in SLOT_NAMES:
        raise mesa_corpus.Problem("coefficient binding of varying slot %d" % n)
    return "VARYING_SLOT_" + SLOT_NAMES[n]


def f32(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def sections(text):
    out = {}
    for m in re.finditer(r"^\[([^\]]+)\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S):
        name = m.group(1).strip()
        if name in out and name.endswith("shader"):
            # several compilation units of one stage (glamor's gradients): glsl_graphics
            # compiles one source per stage
            raise mesa_corpus.Problem("several %s units" % name)
        out[name] = m.group(2)
    return out


def ubo_words(uniforms, numbering):
    """Block 0 as 32-bit words: each uniform at its vec4 slots with the harness's values."""
    size = max([u[3] + u[4] for u in uniforms] or [0])
    words = [0] * (4 * size)
    for name, ty, elements, slot, _, *identity in uniforms:
        if identity:
            # a fixed-function matrix at GL's initial state (glsl_graphics.c): the identity
            n = int(MATRIX.match(ty).group(1))
            for e in range(max(elements, 1)):
                for col in range(n):
                    words[4 * (slot + e * n + col) + col] = f32(1.0)
            continue
        if name not in numbering:
            raise mesa_corpus.Problem("uniform %s: llvmpipe lists no such active uniform" % name)
        k = numbering[name][0]
        m = MATRIX.match(ty)
        v = VECTOR.match(ty)
        if m:
            n = int(m.group(1))
            cols, rows, kind = n, n, "f"
        elif v:
            cols, rows = 1, int(v.group(3) or 1)
            kind = {"": "f", "i": "i", "u": "i", "b": "b"}[v.group(1)]
            if v.group(2) in ("int", "uint"):
                kind = "i"
            elif v.group(2) == "bool":
                kind = "b"
        else:
            raise mesa_corpus.Problem("uniform %s of type %s" % (name, ty))
        if elements > 64:
            raise mesa_corpus.Problem("uniform %s: more than 64 elements" % name)
        for e in range(max(elements, 1)):
            for col in range(cols):
                for row in range(rows):
                    c = col * rows + row
                    at = 4 * (slot + e * cols + col) + row
                    if kind == "f":
                        words[at] = f32((k + 1) + (4 * e + c + 1) / 64.0)
                    elif kind == "i":
                        words[at] = (1000 * (k + 1) + 4 * e + c) & 0xffffffff
                    else:
                        # st_extensions.c: UniformBooleanTrue is ~0 with native integers
                        words[at] = 0xffffffff
    return words


def harness_copy(path):
    """The program as the harness draws it: piglit's `[test]` and `[vertex data]` sections left
    out (the harness gives its own inputs; tools/agx/piglit_corpus.sh does the same)."""
    text = path.read_text(errors="replace")
    if not re.search(r"^\[(test|vertex data)\]", text, re.M):
        return path
    keep, out = True, []
    for line in text.splitlines(keepends=True):
        if line.startswith("["):
            keep = not re.match(r"\[(test|vertex data)\]", line)
        if keep:
            out.append(line)
    copy = pathlib.Path(mesa_corpus.TMP + "-" + path.name)
    copy.write_text("".join(out))
    return copy


def limit_memory():
    """Mesa's compiler on piglit's inlining-explosion tests grows without bound: 4 GiB at most."""
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def run_compiler(compiler, vs, fs, tmp, env):
    vp, fp, out = os.path.join(tmp, "a.vert"), os.path.join(tmp, "a.frag"), os.path.join(tmp, "a")
    open(vp, "w").write(vs)
    open(fp, "w").write(fs)
    r = subprocess.run([compiler, "--glsl", vp, fp, out], capture_output=True, text=True,
                       timeout=120, env=env, preexec_fn=limit_memory)
    if r.returncode != 0:
        msg = [m for m in r.stderr.splitlines() if m.startswith("glsl_graphics:")]
        if msg:
            raise mesa_corpus.Problem(" ".join(" ".join(msg).split())[:300])
        if r.returncode < 0:
            raise mesa_corpus.Problem("Mesa's compiler crashed (signal %d)" % -r.returncode)
        raise mesa_corpus.Problem("glsl_graphics exit %d" % r.returncode)
    return r.stdout, open(out + ".bin", "rb").read(), open(out + ".eot.bin", "rb").read()


def build(compiler, harness, path, name, out_dir):
    text = path.read_text(errors="replace")
    sec = sections(text)
    other = [s for s in sec if s.endswith("shader") and s not in ("vertex shader",
                                                                   "fragment shader")]
    if other:
        raise mesa_corpus.Problem("stage " + other[0])
    if "fragment shader" not in sec:
        raise mesa_corpus.Problem("no fragment shader")
    fs = sec["fragment shader"]
    # `# wavesim: linear` in a test's header: LINEAR texture filters in the harness and the
    # sampler descriptors (wavesim runs linear filtering under the approximation opt-in)
    linear = re.search(r"^#.*wavesim:.*\blinear\b", text, re.M) is not None
    env = dict(os.environ)
    env.pop("SHADER_TEST_LINEAR", None)
    if linear:
        env.update(GLSL_GRAPHICS_LINEAR="1", SHADER_TEST_LINEAR="1")
    with tempfile.TemporaryDirectory() as tmp:
        # the fragment shader alone, as a separable program: see the module comment
        info_text, code, eot = run_compiler(compiler, "", fs, tmp, env)
        images = {int(n[len("a.tex"):-len(".bin")]): open(os.path.join(tmp, n), "rb").read()
                  for n in os.listdir(tmp) if n.startswith("a.tex")}
    kv, cfs, imm, uniforms, samplers, inputs = {}, [], [], [], [], []
    textures, sampler_descs, kinds = {}, {}, {}
    for line in info_text.splitlines():
        f = line.split()
        if f[0] == "cf":
            cfs.append(tuple(int(v) for v in f[1:]))
        elif f[0] == "immediates":
            imm = [int(v) for v in f[1:]]
        elif f[0] == "uniform":
            ty, elements, slot = f[2], int(f[3]), int(f[4])
            m = MATRIX.match(ty)
            per = int(m.group(1)) if m else 1
            uniforms.append((f[1], ty, elements, slot, per * max(elements, 1)) + tuple(f[5:6]))
        elif f[0] == "sampler":
            samplers.append((f[1], int(f[2]), int(f[3])))
        elif f[0] == "texture":
            textures[int(f[1])] = [int(v) for v in f[4:]]
            kinds[int(f[1])] = f[3]
        elif f[0] == "sampler_desc":
            sampler_descs[int(f[1])] = [int(v) for v in f[2:]]
        elif f[0] == "input":
            # (name, type, slot, frac, interp) as mesa_corpus.parse_info gives them; a matrix
            # input is its columns at consecutive slots (`name[i]`, as fragment_feed places
            # a linker-packed matrix column)
            m = MATRIX.match(f[2])
            slot = re.match(r"(VARYING_SLOT_VAR)(\d+)$", f[3])
            if m and slot:
                n = int(m.group(1))
                for i in range(n):
                    inputs.append(("%s[%d]" % (f[1], i), "vec%d" % n,
                                   slot.group(1) + str(int(slot.group(2)) + i), "x", f[5]))
            else:
                inputs.append((f[1], f[2], f[3], "xyzw"[int(f[4])], f[5]))
        else:
            kv[f[0]] = int(f[1])
    if sorted(textures) != list(range(len(textures))):
        raise mesa_corpus.Problem("texture indices %s are not 0..n-1" % sorted(textures))
    # a colour written only in part leaves the rest undefined (GLSL 1.10 7.2; GL 4.6 17.4.1)
    pre = mesa_corpus.preprocess(fs)
    outs = ["gl_FragColor", r"gl_FragData\s*\[\s*0\s*\]"] + [
        re.escape(n) for n in re.findall(r"^\s*(?:layout\s*\([^)]*\)\s*)?out\s+\w+\s+(\w+)\s*;",
                                         pre, re.M)]
    for o in outs:
        if re.search(r"\b%s\s*\.\s*[xyzwrgba]+\s*[-+*/]?=" % o, pre) and \
                not re.search(r"\b%s\s*[-+*/]?=(?!=)" % o, pre):
            raise mesa_corpus.Problem("the colour is written only in part (the rest is undefined)")
    if kv.get("writes_z") or kv.get("writes_s"):
        raise mesa_corpus.Problem("writes depth or stencil (the harness has no depth buffer)")
    for inp in inputs:
        if inp[2] in ("VARYING_SLOT_FACE", "VARYING_SLOT_PNTC"):
            raise mesa_corpus.Problem("input %s" % inp[2])
    info = {"inputs": inputs, "fs_nr_cf": kv["nr_cf"],
            "fs_binding": [{"cf_base": b, "slot": slot_name(s), "offset": o, "count": n}
                           for b, s, o, n, _, _ in cfs]}
    vs, planes = mesa_corpus.fragment_feed(info, fs)
    os.environ.pop("SHADER_TEST_LINEAR", None)
    if linear:
        os.environ["SHADER_TEST_LINEAR"] = "1"  # fragment_reference passes os.environ on
    px = mesa_corpus.fragment_reference(harness, harness_copy(path), vs)
    os.environ.pop("SHADER_TEST_LINEAR", None)
    numbering = {}
    for line in pathlib.Path(mesa_corpus.TMP + "-uniforms.txt").read_text().splitlines():
        _, uname, k, unit = line.split()
        numbering[re.sub(r"\[0\]$", "", uname)] = (int(k), int(unit))
    words = ubo_words(uniforms, numbering)
    # each sampler's texture: alpha 32 u + 4 for its unit u (tools/agx/mesa_shader_test.c)
    for sname, element, index in samplers:
        if sname not in numbering:
            raise mesa_corpus.Problem("sampler %s: llvmpipe lists no such uniform" % sname)
        unit = numbering[sname][1] + element
        if kinds[index] != "rgba8":
            continue  # a depth texture: no alpha
        img = bytearray(images[index])
        for at in range(0, len(img), 4):
            if img[at]:  # a texel (R = 16 x + 1), not padding
                img[at + 3] = (32 * unit + 4) & 0xff
        images[index] = bytes(img)
    eot_path = out_dir / "end_of_tile.bin"
    if eot_path.exists() and eot_path.read_bytes() != eot:
        raise mesa_corpus.Problem("a different end-of-tile program")
    eot_path.write_bytes(eot)
    (out_dir / (name + ".bin")).write_bytes(code)
    (out_dir / (name + ".ref")).write_text(
        "".join("%d %d %s\n" % (x, y, " ".join(map(str, v))) for (x, y), v in sorted(px.items())))
    # the rows whose hardware rule no public source gives run under the opt-in (docs/AGX.md)
    listing = subprocess.run([WAVESIM, "disasm", "--raw", str(out_dir / (name + ".bin")),
                              "--target", "agx"], capture_output=True, text=True, check=True).stdout
    approximate = linear or any(op in listing for op in ("sin_pt_1", "sin_pt_2", "rsqrt_special"))
    j = ["# %s as Mesa 25.0.7's GLSL front end and asahi compiler compiled and linked its fragment "
         "program (tools/agx/gl25_glsl_corpus.py); llvmpipe's pixels in %s.ref" % (path.name, name),
         'kind = "fragment"', 'abi = "mesa-25.0-linked"', 'code = "%s.bin"' % name]
    if approximate:
        j.append("approximate = true")
    j += ["nr_gprs = %d" % ((kv["nr_gprs"] + 1) // 2), "", "[gallium]", "main_offset = 0"]
    if kv["has_preamble"]:
        j += ["preamble_offset = %d" % kv["preamble_offset"],
              "nr_preamble_gprs = %d" % ((kv["nr_preamble_gprs"] + 1) // 2)]
    pbe = __import__("gl25_corpus").pbe_words()
    j += ["", "[end_of_tile]", 'code = "end_of_tile.bin"',
          "nr_gprs = %d" % ((kv["eot_nr_gprs"] + 1) // 2),
          "pbe = [%s]" % ", ".join(map(str, pbe)), 'image = "rt"', "",
          "[fragment]", "width = %d" % W, "height = %d" % H]
    if "gl_FrontFacing" in mesa_corpus.preprocess(fs):
        j.append("front_facing = true")
    j += ["coefficients = [%s]" % ", ".join("[%r, %r, %r]" % tuple(p) for p in planes), "",
          "[[buffer]]", 'name = "rt"', "size = %d" % (W * H * 4)]
    if kv["bindings"]:
        j += ["", "[[buffer]]", 'name = "ubo0"',
              "u32 = [%s]" % ", ".join(map(str, words or [0])), "",
              "[[uniform]]", "slot = 16", 'buffer = "ubo0"']
    for i, v in enumerate(imm[1:]):
        j += ["", "[[uniform]]", "slot = %d" % (imm[0] + i), "u16 = %d" % v]
    for i in range(len(textures)):
        j += ["", "[[buffer]]", 'name = "tex%d"' % i, "u8 = [%s]" % ", ".join(map(str, images[i]))]
    for i in range(len(textures)):
        j += ["", "[[gallium.texture]]", "descriptor = [%s]" % ", ".join(map(str, textures[i])),
              'buffer = "tex%d"' % i]
    if textures:
        # sampler state 0 is reserved (agx_nir_lower_texture: bound samplers are offset by 1)
        descs = [[0, 0]] + [sampler_descs[i] for i in range(len(textures))]
        j[j.index("main_offset = 0") + 1:j.index("main_offset = 0") + 1] = [
            "sampler = [%s]" % ", ".join("[%d, %d]" % tuple(d) for d in descs)]
    j += ["", "[[output]]", 'buffer = "rt"', 'format = "u8"', "count = %d" % (W * H * 4)]
    (out_dir / (name + ".job.toml")).write_text("\n".join(j) + "\n")
    return approximate


# the harness's three vertices (mesa_shader_test.c), fed to every attribute as vec4s
VERTS = [-1.0, -1.0, 0.0, 1.0, 3.0, -1.0, 0.0, 1.0, -1.0, 3.0, 0.0, 1.0]
COMPONENTS = {"float": 1, "vec2": 2, "vec3": 3, "vec4": 4}
# The current values of the built-in attributes the harness gives no array (GL 4.6
# compatibility, 10.2 and its state tables: normal (0, 0, 1), colour (1, 1, 1, 1), secondary
# colour (0, 0, 0, 1), fog coordinate 0, texture coordinates (0, 0, 0, 1)), by VERT_ATTRIB_*
# (shader_enums.h), fetched as 4 components (w = 1 where GL's value has fewer).
CURRENT = {1: [0.0, 0.0, 1.0, 1.0], 2: [1.0, 1.0, 1.0, 1.0], 3: [0.0, 0.0, 0.0, 1.0],
           4: [0.0, 0.0, 0.0, 1.0]}
CURRENT.update({6 + i: [0.0, 0.0, 0.0, 1.0] for i in range(8)})


def llvmpipe_env():
    env = dict(os.environ, EGL_PLATFORM="surfaceless", LIBGL_ALWAYS_SOFTWARE="1",
               GALLIUM_DRIVER="llvmpipe", MESA_GL_VERSION_OVERRIDE="3.3COMPAT",
               MESA_GLSL_VERSION_OVERRIDE="330")
    for k in ("LD_LIBRARY_PATH", "LIBGL_DRIVERS_PATH", "SHADER_TEST_LINEAR"):
        env.pop(k, None)
    return env


def build_vertex(compiler, harness, path, name, out_dir):
    """The program's vertex shader alone (glsl_graphics --glsl-vertex: a hardware vertex shader,
    attributes from the prolog, outputs through the UVS), run by wavesim's vertex runner over
    the harness's three vertices, against llvmpipe's transform feedback of gl_Position and
    every output of the original program (mesa_shader_test.c's SHADER_TEST_XFB)."""
    sec = sections(path.read_text(errors="replace"))
    if "vertex shader" not in sec:
        raise mesa_corpus.Problem("no vertex shader")
    with tempfile.TemporaryDirectory() as tmp:
        vp, out = os.path.join(tmp, "a.vert"), os.path.join(tmp, "a")
        open(vp, "w").write(sec["vertex shader"])
        r = subprocess.run([compiler, "--glsl-vertex", vp, out], capture_output=True, text=True,
                           timeout=120, preexec_fn=limit_memory)
        if r.returncode != 0:
            msg = [m for m in r.stderr.splitlines() if m.startswith("glsl_graphics:")]
            if msg:
                raise mesa_corpus.Problem(" ".join(" ".join(msg).split())[:300])
            raise mesa_corpus.Problem("glsl_graphics exit %d" % r.returncode)
        code = open(out + ".bin", "rb").read()
    kv, slots, read, imm, uniforms, outputs, attrib_loc = {}, {}, {}, [], [], [], {}
    for line in r.stdout.splitlines():
        f = line.split()
        if f[0] == "slot":
            slots[int(f[1])] = (int(f[2]), int(f[3]))
        elif f[0] == "attrib_component":
            read[int(f[1])] = read.get(int(f[1]), 0) | 1 << int(f[2])
        elif f[0] == "immediates":
            imm = [int(v) for v in f[1:]]
        elif f[0] == "uniform":
            m = MATRIX.match(f[2])
            per = int(m.group(1)) if m else 1
            uniforms.append((f[1], f[2], int(f[3]), int(f[4]), per * max(int(f[3]), 1))
                            + tuple(f[5:6]))
        elif f[0] == "output":
            arr = re.fullmatch(r"(\w+)\[(\d+)\]", f[2])
            if arr:  # gl_TexCoord[n]: element i at slot + i, captured as `gl_TexCoord[i]`
                for i in range(int(arr.group(2))):
                    outputs.append(("%s[%d]" % (f[1], i), arr.group(1), int(f[3]) + i, 0))
            else:
                outputs.append((f[1], f[2], int(f[3]), int(f[4])))
        elif f[0] == "attribute":
            attrib_loc[int(f[2])] = int(f[3])
        else:
            kv[f[0]] = int(f[1])
    if kv["main_offset"] != 0:
        raise mesa_corpus.Problem("the main part at %d" % kv["main_offset"])
    order = []  # wavesim output slot of each captured word, in capture order
    names = []
    for oname, ty, loc, frac in outputs:
        if ty not in COMPONENTS:
            raise mesa_corpus.Problem("output %s of type %s" % (oname, ty))
        n = COMPONENTS[ty]
        if loc == 0:
            base, count = kv["slot_pos"], 4
        elif loc in slots:
            base, count = slots[loc]
        else:
            continue  # written by no path the compiler kept: nothing to compare
        if frac + n > count:
            raise mesa_corpus.Problem("output %s: %d components at %d, the UVS holds %d"
                                      % (oname, n, frac, count))
        names.append(oname)
        order += [base + frac + c for c in range(n)]
    env = dict(llvmpipe_env(), SHADER_TEST_XFB=",".join(names), SHADER_TEST_PRINT_UNIFORMS="1")
    r = subprocess.run([harness, str(harness_copy(path))], env=env, capture_output=True,
                       text=True, timeout=60)
    numbering, words = {}, {}
    for line in r.stdout.splitlines():
        f = line.split()
        if f[:1] == ["uniform"]:
            numbering[re.sub(r"\[0\]$", "", f[1])] = (int(f[2]), int(f[3]))
        elif f[:1] == ["xfb"]:
            words.setdefault(int(f[1]), []).extend(f[3:])
    if sorted(words) != [0, 1, 2] or any(len(w) != len(order) for w in words.values()):
        raise mesa_corpus.Problem("llvmpipe: " + (r.stderr.strip().splitlines()
                                                  or ["no capture"])[-1][:200])
    ubo = ubo_words(uniforms, numbering)
    (out_dir / (name + ".vs.bin")).write_bytes(code)
    listing = subprocess.run([WAVESIM, "disasm", "--raw", str(out_dir / (name + ".vs.bin")),
                              "--target", "agx"], capture_output=True, text=True, check=True).stdout
    approximate = any(op in listing for op in ("sin_pt_1", "sin_pt_2", "rsqrt_special"))
    (out_dir / (name + ".vs.ref")).write_text("".join(
        "%d:%s\n" % (v, "".join(" %d=%s" % (slot, w) for slot, w in zip(order, words[v])))
        for v in range(3)))
    j = ["# the vertex shader of %s as Mesa 25.0.7's GLSL front end and asahi compiler compiled it "
         "(tools/agx/gl25_glsl_corpus.py); llvmpipe's transform feedback in %s.vs.ref"
         % (path.name, name),
         'kind = "vertex"', 'abi = "mesa-current"', 'code = "%s.vs.bin"' % name]
    if approximate:
        j.append("approximate = true")
    j += ["nr_gprs = %d" % ((kv["nr_gprs"] + 1) // 2), "", "[vertex]", "vertex_count = 3"]
    if kv["has_preamble"]:
        j += ["preamble_offset = %d" % kv["preamble_offset"],
              "nr_preamble_gprs = %d" % ((kv["nr_preamble_gprs"] + 1) // 2)]
    currents = {}
    for a in range(kv["attribs"]):
        loc = attrib_loc.get(a, 0)
        if loc in CURRENT:
            # a built-in attribute without an array: its current value, a stride-0 attribute
            buf = "current%d" % loc
            currents[buf] = CURRENT[loc]
            j += ["", "[[vertex.attribute]]", 'buffer = "%s"' % buf, "stride = 0"]
        else:
            j += ["", "[[vertex.attribute]]", 'buffer = "verts"', "stride = 16"]
        j += ['format = "f32"', "components = 4", "components_read = %d" % read.get(a, 0)]
    j += ["", "[[buffer]]", 'name = "verts"', "f32 = [%s]" % ", ".join(map(repr, VERTS))]
    for buf, value in currents.items():
        j += ["", "[[buffer]]", 'name = "%s"' % buf, "f32 = [%s]" % ", ".join(map(repr, value))]
    if ubo:
        j += ["", "[[buffer]]", 'name = "ubo0"', "u32 = [%s]" % ", ".join(map(str, ubo)), "",
              "[[uniform]]", "slot = %d" % kv["ubo_base"], 'buffer = "ubo0"']
    for i, v in enumerate(imm[1:]):
        j += ["", "[[uniform]]", "slot = %d" % (imm[0] + i), "u16 = %d" % v]
    (out_dir / (name + ".vs.toml")).write_text("\n".join(j) + "\n")


def excluded():
    """tools/agx/gl25_glsl_excluded.txt: `NAME: why` for programs left out on purpose."""
    out = {}
    for line in (HERE / "gl25_glsl_excluded.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, why = line.partition(":")
            out[name.strip()] = why.strip()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mesa")
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--compiler")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    compiler = a.compiler
    if not compiler:
        compiler = "/tmp/wavesim-glsl_graphics"
        subprocess.run(["sh", str(HERE / "build_glsl_graphics.sh"), a.mesa, compiler],
                       check=True, stdout=subprocess.DEVNULL)
    harness = mesa_corpus.TMP + "-shader_test-llvmpipe"
    subprocess.run(["cc", "-O2", "-o", harness, str(HERE / "mesa_shader_test.c"), "-lEGL"],
                   check=True)
    summary = []
    built = [0, 0]  # fragment, vertex jobs
    skip = excluded()
    for spec in a.dirs:
        prefix, _, d = spec.partition("=")
        files = sorted(pathlib.Path(d).rglob("*.shader_test"))
        if a.limit:
            files = files[:a.limit]
        for p in files:
            rel = p.relative_to(d).with_suffix("")
            name = prefix + "_" + re.sub(r"[^A-Za-z0-9_.-]", "_", str(rel).replace("/", "_"))
            for key, make in ((name, build), (name + ".vs", build_vertex)):
                if key in skip:
                    summary.append("%s: excluded: %s" % (key, skip[key]))
                else:
                    try:
                        make(compiler, harness, p, name, a.out)
                        built[make is build_vertex] += 1
                        summary.append("%s: job" % key)
                    except (mesa_corpus.Problem, subprocess.TimeoutExpired) as e:
                        summary.append("%s: %s" % (key, " ".join(str(e).split())[:300]))
                print(summary[-1], flush=True)
    (a.out / "summary.txt").write_text("\n".join(summary) + "\n")
    print("%d fragment jobs, %d vertex jobs" % tuple(built))


if __name__ == "__main__":
    main()
