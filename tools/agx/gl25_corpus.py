#!/usr/bin/env python3
"""corpus/agx/gl25: GLSL fragment shaders compiled and linked by Mesa 25.0.7's asahi compiler as its
gallium driver does for a draw to one RGBA8 render target (tools/agx/glsl_graphics.c: prolog, main
part and FS epilog in one program, the main part's preamble, and the end-of-tile program), with
jobs and llvmpipe's answers.

For each DIR/NAME.frag (GLSL 4.50 valid for both GL and Vulkan: inputs with explicit locations,
uniform blocks with explicit bindings, output at location 0), this compiles the shader with
glslangValidator -V and glsl_graphics, writes NAME.bin, NAME.job.toml (abi = "mesa-25.0-linked",
kind = "fragment", 16x16 pixels; the end-of-tile program is the shared end_of_tile.bin (end_of_tile_2rt.bin for two render
targets), its PBE
descriptor a linear 16x16 RGBA8 image whose bytes are the job's output) and NAME.ref: llvmpipe's
pixels (tools/agx/gl_fragment_ref.c) as `X Y R G B A DEPTHBITS`.

Inputs: input (location L, component c) is the plane v = a x_ndc + b y_ndc + c0 of one triangle
(-1,-1) (3,-1) (-1,3) at z = 0, w = 1, with a, b, c0 multiples of 1/32 chosen from (L, c); the
GL vertex shader writes it at each vertex. In the job the coefficient registers hold the same
planes per pixel (x_ndc = (x + 0.5) / 8 - 1: A = a/8, B = b/8, C = c0 - a - b), flat inputs the
provoking (last) vertex's value, gl_FragCoord's W plane 1 and Z plane 0.5 (window depth of
z = 0). wavesim's pixel row y is GL's window row y (GL's rows count from the bottom, the shaders
read gl_FragCoord only through sr80/sr81).

Header comments: `// ubo: BINDING f32 V...` or `// ubo: BINDING words W...` (block contents);
`// rts: 2` (two RGBA8 render targets, outputs at locations 0 and 1; the job's second image is
`rt1`, NAME.ref gives its bytes after the depth); `// blend: alpha` or `// blend: add` (the
epilog's blending, glBlendFunc(SRC_ALPHA, ONE_MINUS_SRC_ALPHA) or (ONE, ONE)); `// clear: R G B A`
(the clear colour, multiples of 1/255 so that the tile's bytes are exact: the job's
`[end_of_tile] clear`, as the driver's background program leaves the tile);
`// approximate`: the job runs under the approximation opt-in (sqrt, length and distance are
`rsqrt_special`, sin/cos `sin_pt_1/2`; a sample-shaded discard's `sample_mask` on tested samples); `// samples: N` (2 or 4): a multisampled framebuffer
(GLSL_GRAPHICS_SAMPLES: the epilog, the linked sample loop when the shader shades samples and
the end-of-tile program for N samples; the job's `samples = N` and a twiddled N-sample PBE whose
image holds every sample as libagx addresses them); NAME.ref is then llvmpipe's `positions`
line and each sample's bytes `X Y S R G B A`, read back through texelFetch of the
multisampled texture (tools/agx/gl_fragment_ref.c); `// alpha_to_coverage` (with samples):
GL_SAMPLE_ALPHA_TO_COVERAGE, which Mesa lowers into the epilog (GLSL_GRAPHICS_A2C);
`// triangle: X0 Y0 X1 Y1 X2 Y2`: the triangle drawn, in window pixels (multiples of 1/8, so
that the NDC positions X/8 - 1 are exact), instead of the one covering the framebuffer: the GL
vertex shader's positions and the job's `triangle` (wavesim's rasteriser: only covered samples
are written, the others keep the clear colour), flat inputs from its last vertex, and
`front_facing` from its winding (counter-clockwise in window coordinates is GL's default front
face); `// fill_rule: top-left`: the job's `fill_rule` (samples exactly on an edge).

Vertex shaders (DIR/NAME.vert, attributes at locations 0..n-1, no uniform blocks): compiled as a
hardware vertex shader (glsl_graphics --vertex: attributes from the prolog's registers, outputs
through the UVS layout agx_assign_uvs links), written as NAME.vs.bin and NAME.vs.toml (abi =
"mesa-current": wavesim's vertex runner does the prolog's attribute fetch) over 4 vertices whose
attribute values are multiples of 1/16; NAME.vs.ref is llvmpipe's transform feedback of
gl_Position and every output (tools/agx/gl_vertex_ref.c) as `VERTEX: SLOT=WORD...` in wavesim's
output slots.

Usage: gl25_corpus.py MESA_NEW_WORKDIR DIR [NAME.frag|NAME.vert...]
       gl25_corpus.py MESA_NEW_WORKDIR DIR --from SOURCES --prefix P --triangle "X0 Y0 X1 Y1 X2 Y2"
                      [--fill-rule top-left] [NAME.frag...]
(the second form builds the fragment shaders of SOURCES into DIR as P + NAME, drawn over the
triangle where a source names none: corpus/agx/gl25cover's copies of gl25 and gl25msaa)
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
W = H = 16
SIZES = {'float': 1, 'vec2': 2, 'vec3': 3, 'vec4': 4}


def f32(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def plane(loc, comp):
    k = 4 * loc + comp
    return ((k % 5) - 2) / 32.0, ((3 * k % 5) - 2) / 32.0, 0.25 + (5 * k % 8) / 16.0


def inputs(text):
    out = []
    for m in re.finditer(r'layout\s*\(\s*location\s*=\s*(\d+)\s*\)\s*(flat\s+|noperspective\s+)?'
                         r'(centroid\s+|sample\s+)?'
                         r'in\s+(?:(?:lowp|mediump|highp)\s+)?(float|vec2|vec3|vec4)\s+(\w+)\s*;', text):
        # the auxiliary qualifier goes on the vertex output too (llvmpipe's linker wants them
        # to match); the interpolation qualifier decides the coefficient planes
        qual = ' '.join(q.strip() for q in (m.group(2), m.group(3)) if q)
        out.append((int(m.group(1)), qual, m.group(4), m.group(5)))
    return out


# the triangle covering the framebuffer, in NDC
FULL = [(-1.0, -1.0), (3.0, -1.0), (-1.0, 3.0)]


def vertex_shader(ins, ndc=FULL):
    lines = ['#version 450',
             'const vec2 P[3] = vec2[](%s);' % ', '.join('vec2(%r, %r)' % p for p in ndc)]
    body = []
    for loc, qual, ty, _ in ins:
        lines.append('layout(location = %d) %sout %s v%d;' % (loc, qual + ' ' if qual else '', ty, loc))
        comps = []
        for c in range(SIZES[ty]):
            a, b, c0 = plane(loc, c)
            comps.append('%r * p.x + %r * p.y + %r' % (a, b, c0))
        body.append('    v%d = %s(%s);' % (loc, ty, ', '.join(comps)))
    lines += ['void main() {', '    vec2 p = P[gl_VertexID];',
              '    gl_Position = vec4(p, 0.0, 1.0);'] + body + ['}']
    return '\n'.join(lines) + '\n'


def ubos(text):
    out = {}
    for line in text.splitlines():
        if line.startswith('// ubo:'):
            f = line[7:].split()
            b, kind, vals = int(f[0]), f[1], f[2:]
            out[b] = [f32(float(v)) for v in vals] if kind == 'f32' else \
                [int(v, 0) & 0xffffffff for v in vals]
    return out


def pbe_words():
    """cmdbuf.xml PBE of a linear 16x16 RGBA8 unorm 2D image (the fields exec/image.rs reads):
    dimension 2, layout 0 (linear), channels 0x28, type 0, swizzle 0,1,2,3, width - 1, height - 1,
    the address (set by the runner), level 0, row pitch - 4."""
    v = 2 | 0 << 4 | 0x28 << 6 | 0 << 13 | (0 | 1 << 2 | 2 << 4 | 3 << 6) << 16
    v |= (W - 1) << 24 | (H - 1) << 38 | (W * 4 - 4) << 104
    return [(v >> (32 * i)) & 0xffffffff for i in range(6)]


# agx_default_sample_positions (Mesa's gallium driver): sample n in byte n, x low nibble, y high,
# in 1/16 pixel
MESA_POSITIONS = {2: 0x44cc, 4: 0xeaa26e26}


def ms_pbe_words(samples):
    """cmdbuf.xml PBE of a twiddled 16x16 RGBA8 unorm N-sample image: dimension 4 (2D
    multisampled), layout 2 (twiddled), channels 0x28, swizzle 0,1,2,3, width - 1, height - 1,
    Samples (0: 2, 1: 4), the address (set by the runner), level 0, levels - 1 = 0, layers - 1 = 0;
    the software words agx_batch_upload_pbe fills for a multisampled image: aligned width 16, a
    16x16 tile (log2 4 each), the sample count's log2."""
    v = 4 | 2 << 4 | 0x28 << 6 | 0 << 13 | (0 | 1 << 2 | 2 << 4 | 3 << 6) << 16
    v |= (W - 1) << 24 | (H - 1) << 38 | (1 if samples == 4 else 0) << 56
    v |= W << 128 | 4 << 155 | 4 << 158 | (samples.bit_length() - 1) << 188
    return [(v >> (32 * i)) & 0xffffffff for i in range(6)]


def header(text, key):
    for line in text.splitlines():
        if line.startswith('// %s:' % key):
            return line.split(':', 1)[1].split()
    return None


def build(src_dir, name, compiler, ref, out_dir=None, prefix='', extra=''):
    """NAME.frag of SRC_DIR into OUT_DIR (default SRC_DIR) as PREFIX + NAME, with the header
    lines EXTRA added after `#version` when the source names no triangle."""
    src = os.path.join(src_dir, name + '.frag')
    text = open(src).read()
    out_dir = out_dir or src_dir
    if extra and header(text, 'triangle') is None:
        first, rest = text.split('\n', 1)
        text = first + '\n' + extra + rest
        src = os.path.join(tempfile.mkdtemp(), name + '.frag')
        open(src, 'w').write(text)
    source_name, name = name, prefix + name
    ins = inputs(text)
    blocks = ubos(text)
    rts = int((header(text, 'rts') or ['1'])[0])
    blend = (header(text, 'blend') or [None])[0]
    clear = [float(v) for v in header(text, 'clear') or [0, 0, 0, 0]]
    samples = int((header(text, 'samples') or ['1'])[0])
    a2c = '\n// alpha_to_coverage\n' in text
    window = [float(v) for v in header(text, 'triangle') or []]
    if window and (len(window) != 6 or any((v * 8) % 1 for v in window)):
        raise SystemExit('%s: triangle: six multiples of 1/8' % name)
    ndc = [(window[2 * i] / (W / 2) - 1, window[2 * i + 1] / (H / 2) - 1)
           for i in range(3)] if window else FULL
    fill_rule = (header(text, 'fill_rule') or [None])[0]
    env = dict(os.environ, GLSL_GRAPHICS_RTS=str(rts), GLSL_GRAPHICS_SAMPLES=str(samples))
    if a2c:
        env['GLSL_GRAPHICS_A2C'] = '1'

    if blend:
        env['GLSL_GRAPHICS_BLEND'] = blend
    with tempfile.TemporaryDirectory() as tmp:
        spv, out = os.path.join(tmp, 'a.spv'), os.path.join(tmp, 'a')
        subprocess.run(['glslangValidator', '-V', src, '-o', spv], check=True, capture_output=True,
                       text=True)
        info = subprocess.run([compiler, spv, out], check=True, capture_output=True,
                              text=True, env=env).stdout
        vert = os.path.join(tmp, 'a.vert')
        open(vert, 'w').write(vertex_shader(ins, ndc))
        spec = os.path.join(tmp, 'spec')
        with open(spec, 'w') as f:
            for b, words in sorted(blocks.items()):
                f.write('ubo %d %s\n' % (b, ' '.join('%x' % w for w in words)))
            f.write('rts %d\nclear %s\n' % (rts, ' '.join(map(repr, clear))))
            if samples > 1:
                f.write('samples %d\n' % samples)
            if a2c:
                f.write('alpha_to_coverage\n')
            if blend:
                f.write('blend %s\n' % blend)
        r = subprocess.run([ref, vert, src, spec], check=True, capture_output=True,
                           text=True).stdout
        code = open(out + '.bin', 'rb').read()
        eot = open(out + '.eot.bin', 'rb').read()
    kv, cfs, imm = {}, [], []
    for line in info.splitlines():
        f = line.split()
        if f[0] == 'cf':
            cfs.append(tuple(int(v) for v in f[1:]))
        elif f[0] == 'immediates':
            imm = [int(v) for v in f[1:]]
        else:
            kv[f[0]] = int(f[1])
    clear_bytes = [round(c * 255) for c in clear]
    if any(abs(c * 255 - b) > 1e-4 for c, b in zip(clear, clear_bytes)):
        raise SystemExit('%s: clear colour %s is not a multiple of 1/255' % (name, clear))
    record = [0] * 8
    for i in range(rts):
        at = kv['tib_offset'] if i == 0 else kv['tib_offset_%d' % i]
        record[at:at + 4] = clear_bytes
    if kv['bindings'] > len(blocks) or any(b >= kv['bindings'] for b in blocks):
        raise SystemExit('%s: uniform blocks %s, the compiler bound %d' % (name, sorted(blocks), kv['bindings']))
    eot_name = 'end_of_tile.bin' if rts == 1 else 'end_of_tile_%drt.bin' % rts
    if samples > 1:
        eot_name = eot_name[:-4] + '_%dx.bin' % samples
        pos = r.splitlines()[0].split()
        packed = MESA_POSITIONS[samples]
        want = [v for n in range(samples) for v in
                ((packed >> 8 * n & 15) / 16, (packed >> 8 * n + 4 & 15) / 16)]
        # GL's GL_SAMPLE_POSITION has y upwards from the bottom of the pixel; Mesa's nibbles
        # too (wavesim's rows are GL's rows, see the module comment)
        # the positions matter where a value is evaluated at a sample (GL leaves them to the
        # implementation: llvmpipe's 2-sample ones are not Mesa's)
        at_samples = re.search(r'gl_SamplePosition|interpolateAtSample|\bsample\s+in\b', text)
        if pos[0] != 'positions' or (at_samples and [float(v) for v in pos[1:]] != want):
            raise SystemExit('%s: llvmpipe\'s sample positions %s, Mesa\'s %s' % (name, pos[1:], want))
    eot_path = os.path.join(out_dir, eot_name)
    if os.path.exists(eot_path) and open(eot_path, 'rb').read() != eot:
        raise SystemExit('%s: a different end-of-tile program' % name)
    open(eot_path, 'wb').write(eot)
    kinds = {loc: qual for loc, qual, _, _ in ins}
    planes = [None] * kv['nr_cf']
    for base, slot, offset, count, smooth, persp in cfs:
        for i in range(count):
            comp = offset + i
            if slot == 0:  # VARYING_SLOT_POS: Z (window depth 0.5) or W (1)
                p = [0.0, 0.0, 0.5 if comp == 2 else 1.0]
            elif slot >= 32:
                loc = slot - 32
                if loc not in kinds:
                    raise SystemExit('%s: coefficient binding of location %d, not an input' % (name, loc))
                a, b, c0 = plane(loc, comp)
                if kinds[loc].startswith('flat') or not smooth:
                    # the provoking (last) vertex
                    p = [0.0, 0.0, a * ndc[2][0] + b * ndc[2][1] + c0]
                else:
                    p = [a / 8, b / 8, c0 - a - b]
            else:
                raise SystemExit('%s: coefficient binding of varying slot %d' % (name, slot))
            planes[base + i] = p
    if any(p is None for p in planes):
        raise SystemExit('%s: coefficient registers without a binding' % name)
    stem = os.path.join(out_dir, name)
    open(stem + '.bin', 'wb').write(code)
    open(stem + '.ref', 'w').write(r)
    origin = os.path.relpath(os.path.join(src_dir, source_name), os.path.join(HERE, '..', '..'))
    j = ['# %s.frag as Mesa 25.0.7 compiled and linked it (tools/agx/gl25_corpus.py); '
         'llvmpipe\'s answer in %s.ref' % (origin if out_dir != src_dir else name, name),
         'kind = "fragment"', 'abi = "mesa-25.0-linked"', 'code = "%s.bin"' % name]
    if '\n// approximate\n' in text:
        j.append('approximate = true')
    j += [
         'nr_gprs = %d' % ((kv['nr_gprs'] + 1) // 2), '', '[gallium]', 'main_offset = 0']
    if kv['has_preamble']:
        j += ['preamble_offset = %d' % kv['preamble_offset'],
              'nr_preamble_gprs = %d' % ((kv['nr_preamble_gprs'] + 1) // 2)]
    pbe = pbe_words() if samples == 1 else ms_pbe_words(samples)
    j += ['', '[end_of_tile]', 'code = "%s"' % eot_name,
          'nr_gprs = %d' % ((kv['eot_nr_gprs'] + 1) // 2),
          'pbe = [%s]' % ', '.join(map(str, pbe)), 'image = "rt"']
    if any(record):
        j.append('clear = [%s]' % ', '.join(map(str, record)))
    for i in range(1, rts):
        j += ['', '[[end_of_tile.target]]', 'pbe = [%s]' % ', '.join(map(str, pbe)),
              'image = "rt%d"' % i]
    j += ['', '[fragment]', 'width = %d' % W, 'height = %d' % H]
    if samples > 1:
        j.append('samples = %d' % samples)
    if window:
        j.append('triangle = [%s]' % ', '.join(
            '[%r, %r]' % (window[2 * i], window[2 * i + 1]) for i in range(3)))
    if fill_rule:
        j.append('fill_rule = "%s"' % fill_rule)
    (x0, y0), (x1, y1), (x2, y2) = ndc
    ccw = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0) > 0
    j += ['front_facing = %s' % ('true' if ccw else 'false'),
          'coefficients = [%s]' % ', '.join('[%r, %r, %r]' % tuple(p) for p in planes), '',
          '[[buffer]]', 'name = "rt"', 'size = %d' % (W * H * 4 * samples)]
    for i in range(1, rts):
        j += ['', '[[buffer]]', 'name = "rt%d"' % i, 'size = %d' % (W * H * 4 * samples)]
    for b, words in sorted(blocks.items()):
        j += ['', '[[buffer]]', 'name = "ubo%d"' % b, 'u32 = [%s]' % ', '.join(map(str, words)),
              '', '[[uniform]]', 'slot = %d' % (16 + 4 * b), 'buffer = "ubo%d"' % b]
    for i, v in enumerate(imm[1:]):
        j += ['', '[[uniform]]', 'slot = %d' % (imm[0] + i), 'u16 = %d' % v]
    j += ['', '[[output]]', 'buffer = "rt"', 'format = "u8"',
          'count = %d' % (W * H * 4 * samples)]
    for i in range(1, rts):
        j += ['', '[[output]]', 'buffer = "rt%d"' % i, 'format = "u8"',
              'count = %d' % (W * H * 4 * samples)]
    open(stem + '.job.toml', 'w').write('\n'.join(j) + '\n')
    print('%s: %d inputs, %d coefficient registers, depth %s' % (name, len(ins), kv['nr_cf'],
                                                               bool(kv['writes_z'])))


def vertex_io(text, storage):
    return [(int(m.group(1)), m.group(2), m.group(3)) for m in re.finditer(
        r'layout\s*\(\s*location\s*=\s*(\d+)\s*\)\s*(?:flat\s+)?%s\s+(float|vec2|vec3|vec4)'
        r'\s+(\w+)\s*;' % storage, text)]


def attribute_value(loc, vertex, comp):
    return ((7 * loc + 5 * vertex + 3 * comp) % 17 - 8) / 16.0


def build_vertex(src_dir, name, compiler, ref):
    """NAME.vert: a hardware vertex shader (glsl_graphics --vertex) run by wavesim's vertex runner
    (abi = "mesa-current": it does the prolog's attribute fetch) over 4 vertices; llvmpipe's
    transform feedback of gl_Position and every output (tools/agx/gl_vertex_ref.c)."""
    src = os.path.join(src_dir, name + '.vert')
    text = open(src).read()
    attrs = sorted(vertex_io(text, 'in'))
    outs = sorted(vertex_io(text, 'out'))
    if [a[0] for a in attrs] != list(range(len(attrs))):
        raise SystemExit('%s: attribute locations must be 0..n-1' % name)
    with tempfile.TemporaryDirectory() as tmp:
        spv, out = os.path.join(tmp, 'a.spv'), os.path.join(tmp, 'a')
        subprocess.run(['glslangValidator', '-V', src, '-o', spv], check=True, capture_output=True,
                       text=True)
        info = subprocess.run([compiler, '--vertex', spv, out], check=True, capture_output=True,
                              text=True).stdout
        spec = os.path.join(tmp, 'spec')
        with open(spec, 'w') as f:
            for loc, ty, _ in attrs:
                n = SIZES[ty]
                f.write('attr %d %d %s\n' % (loc, n, ' '.join(
                    repr(attribute_value(loc, v, c)) for v in range(4) for c in range(n))))
        words = 4 + sum(SIZES[ty] for _, ty, _ in outs)
        r = subprocess.run([ref, src, spec, str(words), 'gl_Position'] + [n for _, _, n in outs],
                           check=True, capture_output=True, text=True).stdout
        code = open(out + '.bin', 'rb').read()
    kv, slots, read, imm = {}, {}, {}, []
    for line in info.splitlines():
        f = line.split()
        if f[0] == 'slot':
            slots[int(f[1])] = (int(f[2]), int(f[3]))
        elif f[0] == 'attrib_component':
            read[int(f[1])] = read.get(int(f[1]), 0) | 1 << int(f[2])
        elif f[0] == 'immediates':
            imm = [int(v) for v in f[1:]]
        else:
            kv[f[0]] = int(f[1])
    if kv['main_offset'] != 0:
        raise SystemExit('%s: the main part at %d' % (name, kv['main_offset']))
    # the reference in wavesim's output slots: position, then each output at its UVS slot
    order = [kv['slot_pos'] + c for c in range(4)]
    for loc, ty, _ in outs:
        base, count = slots[32 + loc]
        if count != SIZES[ty]:
            raise SystemExit('%s: output %d has %d components in the UVS' % (name, loc, count))
        order += [base + c for c in range(count)]
    stem = os.path.join(src_dir, name)
    open(stem + '.vs.bin', 'wb').write(code)
    with open(stem + '.vs.ref', 'w') as f:
        for line in r.splitlines():
            v, ws = line.split(':')
            f.write('%s:%s\n' % (v, ''.join(' %d=%s' % (slot, w)
                                            for slot, w in zip(order, ws.split()))))
    j = ['# %s.vert as Mesa 25.0.7 compiled it (tools/agx/gl25_corpus.py); llvmpipe\'s transform '
         'feedback in %s.vs.ref (output slot=word)' % (name, name),
         'kind = "vertex"', 'abi = "mesa-current"', 'code = "%s.vs.bin"' % name,
         'nr_gprs = %d' % ((kv['nr_gprs'] + 1) // 2), '', '[vertex]', 'vertex_count = 4']
    if kv['has_preamble']:
        j += ['preamble_offset = %d' % kv['preamble_offset'],
              'nr_preamble_gprs = %d' % ((kv['nr_preamble_gprs'] + 1) // 2)]
    for loc, ty, _ in attrs:
        n = SIZES[ty]
        j += ['', '[[vertex.attribute]]', 'buffer = "attr%d"' % loc, 'stride = %d' % (4 * n),
              'format = "f32"', 'components = %d' % n, 'components_read = %d' % read.get(loc, 0)]
    for loc, ty, _ in attrs:
        n = SIZES[ty]
        j += ['', '[[buffer]]', 'name = "attr%d"' % loc, 'f32 = [%s]' % ', '.join(
            repr(attribute_value(loc, v, c)) for v in range(4) for c in range(n))]
    for i, v in enumerate(imm[1:]):
        j += ['', '[[uniform]]', 'slot = %d' % (imm[0] + i), 'u16 = %d' % v]
    open(stem + '.vs.toml', 'w').write('\n'.join(j) + '\n')
    print('%s: %d attributes, %d outputs' % (name, len(attrs), len(outs)))


def main():
    args, opts = [], {}
    argv = sys.argv[1:]
    while argv:
        a = argv.pop(0)
        if a in ('--from', '--prefix', '--triangle', '--fill-rule'):
            opts[a] = argv.pop(0) if argv else ''
        else:
            args.append(a)
    if len(args) < 2:
        raise SystemExit(__doc__)
    work, src_dir = args[0], args[1]
    # --from SOURCES: the fragment shaders of SOURCES built into DIR, named --prefix + NAME, drawn
    # over --triangle (and --fill-rule) where they name none
    out_dir = src_dir
    src_dir = opts.get('--from', src_dir)
    extra = ''.join('// %s: %s\n' % (k, opts[o]) for k, o in
                    (('triangle', '--triangle'), ('fill_rule', '--fill-rule')) if o in opts)
    tmp = tempfile.mkdtemp()
    compiler, ref = os.path.join(tmp, 'glsl_graphics'), os.path.join(tmp, 'gl_fragment_ref')
    subprocess.run(['sh', os.path.join(HERE, 'build_glsl_graphics.sh'), work, compiler],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(['cc', '-O2', '-o', ref, os.path.join(HERE, 'gl_fragment_ref.c'), '-lEGL'],
                   check=True)
    vref = os.path.join(tmp, 'gl_vertex_ref')
    subprocess.run(['cc', '-O2', '-o', vref, os.path.join(HERE, 'gl_vertex_ref.c'), '-lEGL'],
                   check=True)
    names = args[2:] or sorted(n for n in os.listdir(src_dir)
                               if n.endswith('.frag') or (n.endswith('.vert') and '--from' not in opts))
    failed = []
    for name in names:
        try:
            if name.endswith('.vert'):
                build_vertex(src_dir, name[:-5], compiler, vref)
            else:
                build(src_dir, name[:-5] if name.endswith('.frag') else name, compiler, ref,
                      out_dir, opts.get('--prefix', ''), extra)
        except (SystemExit, subprocess.CalledProcessError) as e:
            failed.append(name)
            why = (getattr(e, 'stderr', '') or '').strip() or str(e)
            print('%s: FAILED %s' % (name, ' '.join(why.split())[:300]))
    print('%d built, %d failed: %s' % (len(names) - len(failed), len(failed), ' '.join(failed)))


if __name__ == '__main__':
    main()
