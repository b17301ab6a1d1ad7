#!/usr/bin/env python3
"""corpus/agx/glsl: GLSL compute shaders compiled by Mesa 25.0.7's asahi compiler, with jobs and
llvmpipe's answers.

For each DIR/NAME.comp (GLSL 4.50 valid for both GL and Vulkan: buffers and uniform blocks with
explicit bindings, set 0), this compiles the shader with glslangValidator -V and
tools/agx/glsl_compute.c (Mesa's compiler driven as its gallium driver drives it for a compute
shader), writes NAME.bin and NAME.report.toml (the grid-kernel report, through
libagx_kernels.write_kernel), the job NAME.job.toml (kind = "grid_kernel": binding N's buffer is
argument N, every buffer an output as u32 words) and NAME.ref: the same GLSL run by Debian's
llvmpipe with the same buffers (tools/agx/gl_compute_ref.c), one line per buffer,
`BINDING: WORD...`.

The job comes from the shader's header comments:
  // groups: X [Y Z]                workgroups (the local size is the shader's)
  // buffer: BINDING ssbo|ubo KIND N [ARGS]
        KIND: zero N | iota N [START [STEP]] | words W... | f32 V... | randf N LO HI | randu N [MASK]
              | fill N WORD | rgbw N WIDTH (piglit's four-quadrant RGBA8 texture)
  // texture: UNIT DIM FORMAT W H D KIND [ARGS]   a texture on GL texture unit UNIT (sampler
                                    binding UNIT), DIM 2d|2darray|3d|cube, FORMAT as
                                    tools/agx/glsl_compute.c names them, level 0's words from KIND
                                    (as for buffers, N implied; also randh LO HI: f16 pairs)
  // image: UNIT DIM FORMAT W H D KIND [ARGS]     the same as an image on image unit UNIT; after
                                    D, `levels=N,BASE[,REFBASE]` (2D): N levels, KIND's words
                                    filling them in turn, the image bound at level BASE (PBE
                                    Level), in llvmpipe at REFBASE (default BASE); DIM 2dms
                                    (D = 1) or 2dmsarray (D layers) with `samples=S` after D:
                                    a multisampled image or texture, each pixel's S samples in
                                    turn (llvmpipe's is filled by imageStore, not read back)
  // sampler: UNIT linear|seamless  that texture unit's filters LINEAR (seamless: GL's
                                    TEXTURE_CUBE_MAP_SEAMLESS on, the sampler's seamful bit off)
  // sampler: UNIT border R G B A   clamp to border with that custom border colour
  // compare: BINDING f32           compare that buffer's words as f32 within 2^-16 relative
                                    (crates/wavesim-agx/tests/glsl_compute.rs; default: exactly)
  // approximate                    run under the approximation opt-in (sqrt is rsqrt_special)
  // reference: none                no llvmpipe reference (it lacks what the shader uses); the
                                    test expects the run to stop (`// expect error: TEXT`)
  // reference: FILE                llvmpipe runs FILE (in DIR) instead: the same work in GLSL
                                    it has (store_lod_amd: imageStore at a bound level)
Random contents are deterministic (a seeded generator per shader and binding).

Usage: glsl_compute_corpus.py [--drop-failures] MESA_NEW_WORKDIR DIR [NAME...]
With --drop-failures a shader that glslang, Mesa's compiler or llvmpipe refuses is deleted from DIR
and listed in DIR/skipped.txt with the reason (for corpus/agx/piglit, written by piglit_compute.py).
"""
import os
import random
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from libagx_kernels import write_kernel  # noqa: E402


ENV = dict(os.environ)


def f32(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def buffer_words(name, binding, kind, args):
    rng = random.Random('%s/%d' % (name, binding))
    if kind == 'zero':
        return [0] * int(args[0])
    if kind == 'iota':
        n, start, step = int(args[0]), int(args[1]) if len(args) > 1 else 0, \
            int(args[2]) if len(args) > 2 else 1
        return [(start + step * i) & 0xffffffff for i in range(n)]
    if kind == 'words':
        return [int(a, 0) & 0xffffffff for a in args]
    if kind == 'f32':
        return [f32(float(a)) for a in args]
    if kind == 'randf':
        n, lo, hi = int(args[0]), float(args[1]), float(args[2])
        return [f32(rng.uniform(lo, hi)) for _ in range(n)]
    if kind == 'fill':
        return [int(args[1], 0) & 0xffffffff] * int(args[0])
    if kind == 'rgbw':
        # piglit's `texture rgbw` (piglit_rgbw_image, RGBA8): rows from the bottom, the lower
        # half red | green, the upper half blue | white, opaque; args: N WIDTH
        n, w = int(args[0]), int(args[1])
        h = n // w
        colour = [[0xff0000ff, 0xff00ff00], [0xffff0000, 0xffffffff]]
        return [colour[(i // w) >= h // 2][(i % w) >= w // 2] for i in range(n)]
    if kind == 'randh':
        n, lo, hi = int(args[0]), float(args[1]), float(args[2])
        half = [struct.unpack('<H', struct.pack('<e', rng.uniform(lo, hi)))[0]
                for _ in range(2 * n)]
        return [half[2 * i] | half[2 * i + 1] << 16 for i in range(n)]
    if kind == 'randu':
        n, mask = int(args[0]), int(args[1], 0) if len(args) > 1 else 0xffffffff
        return [rng.getrandbits(32) & mask for _ in range(n)]
    raise SystemExit('%s: unknown buffer kind %s' % (name, kind))


FORMAT_BYTES = {'rgba8': 4, 'rgba8ui': 4, 'r32f': 4, 'r32ui': 4, 'r32i': 4, 'rg16i': 4,
                'rgba16f': 8, 'rgba32f': 16, 'rg32f': 8, 'r16ui': 2, 'astc4x4': 0, 'astc6x5': 0}


def parse_resource(name, kind, f):
    """(kind, unit, dim, format, w, h, d, words, opts) of a `// texture:` or `// image:` line;
    opts: {'levels': (N, BASE, REFBASE)} from an image's `levels=N,BASE[,REFBASE]` after D, or
    {'samples': S} from `samples=S` (2dms, 2dmsarray), or {}."""
    unit, dim, fmt, w, h, d = int(f[0]), f[1], f[2], int(f[3]), int(f[4]), int(f[5])
    opts = {}
    while '=' in f[6]:
        key, _, value = f[6].partition('=')
        v = [int(x) for x in value.split(',')]
        if key == 'levels':
            opts['levels'] = (v[0], v[1], v[2] if len(v) > 2 else v[1])
            if kind != 'image' or dim != '2d' or len(v) not in (2, 3) or max(v[1:]) >= v[0]:
                raise SystemExit('%s: levels=N,BASE[,REFBASE] is for 2D images below N' % name)
        elif key == 'samples' and dim in ('2dms', '2dmsarray') and v[0] in (2, 4):
            opts['samples'] = v[0]
        else:
            raise SystemExit('%s: %s' % (name, f[6]))
        f = f[:6] + f[7:]
    if dim in ('2dms', '2dmsarray') and 'samples' not in opts:
        raise SystemExit('%s: %s needs samples=S' % (name, dim))
    levels = opts.get('levels', (1,))[0]
    n = sum(max(w >> l, 1) * max(h >> l, 1) for l in range(levels)) \
        * d * opts.get('samples', 1) * FORMAT_BYTES[fmt] // 4
    if fmt.startswith('astc'):
        bw, bh = (int(v) for v in fmt[4:].split('x'))
        n = -(-w // bw) * -(-h // bh) * d * 4  # 16-byte blocks
    given = f[7:] if f[6] in ('words', 'f32') else [str(n)] + f[7:]
    words = buffer_words(name, 1000 + unit, f[6], given)
    if len(words) != n:
        raise SystemExit('%s: %s %d has %d words, not %d' % (name, kind, unit, len(words), n))
    return (kind, unit, dim, fmt, w, h, d, words, opts)


def option_text(opts, base):
    """A resource's options for glsl_compute (base 1: the AGX view's level) or gl_compute_ref
    (base 2: llvmpipe's), with a leading space."""
    if 'levels' in opts:
        return ' levels=%d,%d' % (opts['levels'][0], opts['levels'][base])
    if 'samples' in opts:
        return ' samples=%d' % opts['samples']
    return ''


def parse(name, text):
    groups, buffers = [1], []
    resources, filters = [], {}
    for line in text.splitlines():
        if not line.startswith('// '):
            continue
        key, _, rest = line[3:].partition(':')
        f = rest.split()
        if key == 'groups':
            groups = [int(v) for v in f]
        elif key == 'buffer':
            binding, kind = int(f[0]), f[1]
            buffers.append((binding, kind, buffer_words(name, binding, f[2], f[3:])))
        elif key in ('texture', 'image'):
            resources.append(parse_resource(name, key, f))
        elif key == 'sampler':
            filters[int(f[0])] = f[1] if f[1] != 'border' else 'border=' + ','.join(f[2:6])
    return groups, sorted(buffers), resources, filters


def build(work, src_dir, name, compiler, ref):
    src = os.path.join(src_dir, name + '.comp')
    text = open(src).read()
    groups, buffers, resources, filters = parse(name, text)
    approximate = '\n// approximate\n' in text
    with tempfile.TemporaryDirectory() as tmp:
        spv, blob = os.path.join(tmp, 'a.spv'), os.path.join(tmp, 'a.blob')
        subprocess.run(['glslangValidator', '-V', src, '-o', spv], check=True,
                       capture_output=True, text=True)
        cmd = [compiler, spv, blob]
        if resources:
            res_spec = os.path.join(tmp, 'resources')
            with open(res_spec, 'w') as f:
                for kind, unit, dim, fmt, w, h, d, words, opts in resources:
                    lin = os.path.join(tmp, 'linear_%s%d' % (kind, unit))
                    with open(lin, 'wb') as g:
                        g.write(struct.pack('<%dI' % len(words), *words))
                    f.write('%s %d %s %s %d %d %d %s %s%s\n' % (
                        kind, unit, dim, fmt, w, h, d, lin,
                        filters.get(unit, 'nearest') if kind == 'texture' else 'nearest',
                        option_text(opts, 1)))
            cmd.append(res_spec)
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=ENV).stdout
        args, args_size, scratch = [], 0, 0
        states, samplers, borders = {}, {}, {}
        for line in out.splitlines():
            f = line.split()
            if f[0] == 'state':
                index, kind, size = int(f[1]), f[2], int(f[4])
                res = ('texture' if kind == 'texture' else 'image') + f[3]
                data = open('%s.%s.bin' % (blob, res), 'rb').read()
                assert len(data) == size and size % 4 == 0
                states[index] = (res, [int(v) for v in f[5:11]],
                                 list(struct.unpack('<%dI' % (size // 4), data)), kind)
            elif f[0] == 'sampler_state':
                samplers[int(f[1])] = [int(f[2]), int(f[3])]
            elif f[0] == 'border':
                borders[int(f[1])] = [int(v) for v in f[2:6]]
            elif f[0] == 'arg':
                args.append((int(f[1]), int(f[2]), int(f[3]), f[4]))
            elif f[0] == 'args_size':
                args_size = int(f[1])
            elif f[0] == 'scratch':
                scratch = int(f[1])
        # every binding below the highest is an argument; one the shader does not use gets a
        # 16-byte zero buffer
        given = {b for b, _, _ in buffers}
        table = bool(args) and args[-1][3] == 'table'
        names = [a[3] for a in args if a[3] != 'table']
        bound = table or 'pbe_used' in out.split()
        if not bound:
            # the PBEs are never read: leave them out of the CLI job's state list
            states = {i: st for i, st in states.items() if st[3] != 'pbe'}
        if names != ['binding%d' % b for b in range(len(names))] or not given <= set(range(len(names))):
            raise SystemExit('%s: the compiled arguments %s are not the buffers %s'
                             % (name, names, sorted(given)))
        unused = [b for b in range(len(names)) if b not in given]
        stem = os.path.join(src_dir, name)
        write_kernel(stem, open(blob, 'rb').read(), 'main', args, args_size,
                     'Mesa 25.0.7 asahi compiler, G13, %s.comp (tools/agx/glsl_compute_corpus.py)'
                     % name, scratch)
        os.replace(stem + '.toml', stem + '.report.toml')
        spec = os.path.join(tmp, 'spec')
        with open(spec, 'w') as f:
            for b, kind, words in buffers:
                f.write('%s %d %s\n' % (kind, b, ' '.join('%x' % w for w in words)))
            for kind, unit, dim, fmt, w, h, d, words, opts in resources:
                # llvmpipe binds the image at REFBASE (see `// reference:`)
                f.write('%s %d %s %s %d %d %d%s %s\n' % (
                    kind, unit, dim, fmt, w, h, d, option_text(opts, 2),
                    ' '.join('%x' % v for v in words)))
            for unit, filt in sorted(filters.items()):
                f.write('sampler %d %s\n' % (unit, filt))
        wg = [int(v) for v in open(stem + '.report.toml').read()
              .split('workgroup = [')[1].split(']')[0].split(',')]
        if len(groups) == 1 and wg[1:] != [1, 1]:
            groups += [1, 1]
        reference = [l[len('// reference: '):].strip() for l in text.splitlines()
                     if l.startswith('// reference: ')]
        if reference == ['none']:
            # no reference: llvmpipe lacks what the shader uses (the test expects a typed error)
            r = None
        else:
            # `// reference: FILE`: llvmpipe runs FILE (GLSL it has) in the shader's place
            ref_src = os.path.join(src_dir, reference[0]) if reference else src
            r = subprocess.run([ref, ref_src, ','.join(map(str, groups)), spec], check=True,
                               capture_output=True, text=True).stdout
        # llvmpipe's images after the dispatch, laid out as the AGX images are (the same tool
        # tiles them), so they compare with the image buffers word by word
        images = {int(l.split()[1].rstrip(':')): [int(v, 16) for v in l.split(':')[1].split()]
                  for l in (r or '').splitlines() if l.startswith('image ')}
        if images:
            res_spec = os.path.join(tmp, 'resources_ref')
            with open(res_spec, 'w') as f:
                for kind, unit, dim, fmt, w, h, d, words, opts in resources:
                    if kind != 'image' or unit not in images:
                        continue
                    lin = os.path.join(tmp, 'ref%d' % unit)
                    with open(lin, 'wb') as g:
                        g.write(struct.pack('<%dI' % len(images[unit]), *images[unit]))
                    f.write('%s %d %s %s %d %d %d %s%s\n' % (
                        kind, unit, dim, fmt, w, h, d, lin,
                        ' nearest' + option_text(opts, 1) if opts else ''))
            subprocess.run([compiler, spv, blob + 'ref', res_spec], check=True,
                           capture_output=True, text=True, env=ENV)
            r = ''.join(l + '\n' for l in r.splitlines() if not l.startswith('image '))
            for unit in sorted(images):
                data = open('%sref.image%d.bin' % (blob, unit), 'rb').read()
                words = list(struct.unpack('<%dI' % (len(data) // 4), data))
                while words and words[-1] == 0:
                    words.pop()  # the rest of the image buffer is zeros
                r += 'image%d: %s\n' % (unit, ' '.join('%08x' % v for v in words))
    if r is not None:
        with open(stem + '.ref', 'w') as f:
            f.write(r)
    with open(stem + '.job.toml', 'w') as f:
        f.write('# %s.comp as Mesa 25.0.7 compiled it (tools/agx/glsl_compute_corpus.py); '
                'llvmpipe\'s answer in %s.ref\n' % (name, name))
        if approximate:
            f.write('approximate = true\n')
        f.write('kind = "grid_kernel"\ncode = "%s.bin"\n\n[grid_kernel]\n%sreport = "%s.report.toml"\n'
                'grid = [%s]\n' % (name, 'table = "table"\n' if table else '', name,
                                    ', '.join(str(g * w) for g, w in zip(groups, wg))))
        if states:
            # the state arrays as the driver binds them; registers no resource takes hold
            # zeros (never read)
            top = max(samplers) + 1 if samplers else 0
            f.write('sampler = [%s]\n' % ', '.join(
                '[%d, %d]' % tuple(samplers.get(i, [0, 0])) for i in range(top)))
            if borders:
                # extended sampler state: a BORDER after every sampler (zeros where unused)
                f.write('border = [%s]\n' % ', '.join(
                    '[%d, %d, %d, %d]' % tuple(borders.get(i, [0] * 4)) for i in range(top)))
        if states and not bound:
            for i in range(max(states) + 1):
                res = states[i][0] if i in states else 'none'
                desc = states[i][1] if i in states else [0] * 6
                f.write('\n[[grid_kernel.texture]]\ndescriptor = [%s]\nbuffer = "%s"\n'
                        % (', '.join(map(str, desc)), res))
        for b, _, words in buffers:
            f.write('\n[[buffer]]\nname = "b%d"\nu32 = [%s]\n' % (b, ', '.join(map(str, words))))
        written = set()
        for res, _, data, _ in sorted(states.values()):
            if res not in written:
                written.add(res)
                # the layout's padding (page-aligned layers) is zeros: given as the size
                used = len(data)
                while used and data[used - 1] == 0:
                    used -= 1
                f.write('\n[[buffer]]\nname = "%s"\nu32 = [%s]\nsize = %d\n'
                        % (res, ', '.join(map(str, data[:used])), 4 * len(data)))
        if states and len(states) <= max(states):
            f.write('\n[[buffer]]\nname = "none"\nsize = 16\n')
        if table:
            f.write('\n[[buffer]]\nname = "table"\nsize = %d\n' % (24 * (max(states) + 1)))
        for b in unused:
            f.write('\n[[buffer]]\nname = "b%d"\nsize = 16\n' % b)
        for b in range(len(names)):
            f.write('\n[[arg]]\nname = "binding%d"\nbuffer = "b%d"\n' % (b, b))
        if table:
            f.write('\n[[arg]]\nname = "table"\nbuffer = "table"\n')
        for b, _, words in buffers:
            f.write('\n[[output]]\nbuffer = "b%d"\nformat = "u32"\ncount = %d\n' % (b, len(words)))
        if bound:
            # TEXTURE and PBE descriptors by index, the bindless table (runner.rs, [grid_kernel])
            f.write('\n# the texture state as the driver binds it (tools/agx/glsl_compute_corpus.py): each\n'
                    '# descriptor\'s address field (TEXTURE bit 66, PBE bit 64) gets its buffer\'s address'
                    + ('; `table`\n# (the bindless table) receives the whole array' if table else '') + '\n')
            for i in sorted(states):
                res, desc, _, kind = states[i]
                f.write('\n[[grid_kernel.state]]\nindex = %d\nkind = "%s"\ndescriptor = [%s]\nbuffer = "%s"\n'
                        % (i, 'pbe' if kind == 'pbe' else 'texture', ', '.join(map(str, desc)), res))
    print('%s: %s groups of %s, %d buffers' % (name, groups, wg[:len(groups)], len(buffers)))


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    argv = sys.argv[1:]
    drop = argv[0] == '--drop-failures'
    if drop:
        argv = argv[1:]
    work, src_dir = argv[0], argv[1]
    # libagx with its function names, for the texture lowering's calls (tools/agx/glsl_compute.c)
    ENV['GLSL_COMPUTE_LIBAGX_SPV'] = os.path.join(work, 'build/src/asahi/libagx/libagx.spv')
    tmp = tempfile.mkdtemp()
    compiler, ref = os.path.join(tmp, 'glsl_compute'), os.path.join(tmp, 'gl_compute_ref')
    subprocess.run(['sh', os.path.join(HERE, 'build_glsl_compute.sh'), work, compiler], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(['cc', '-O2', '-o', ref, os.path.join(HERE, 'gl_compute_ref.c'), '-lEGL'],
                   check=True)
    names = argv[2:] or sorted(n[:-5] for n in os.listdir(src_dir) if n.endswith('.comp'))
    failed = []
    for name in names:
        try:
            build(work, src_dir, name, compiler, ref)
        except (SystemExit, subprocess.CalledProcessError) as e:
            failed.append(name)
            why = (getattr(e, 'stderr', '') or getattr(e, 'stdout', '') or '').strip()
            tool = os.path.basename(e.cmd[0]) if hasattr(e, 'cmd') else 'glsl_compute_corpus'
            why = '%s: %s' % (tool, ' '.join(why.split())[:300] or e)
            print('%s: FAILED %s' % (name, why))
            if drop:
                with open(os.path.join(src_dir, 'skipped.txt'), 'a') as f:
                    f.write('%s: %s\n' % (name, why))
                for ext in ('.comp', '.bin', '.report.toml', '.job.toml', '.ref'):
                    if os.path.exists(os.path.join(src_dir, name + ext)):
                        os.remove(os.path.join(src_dir, name + ext))
    print('%d built, %d failed: %s' % (len(names) - len(failed), len(failed), ' '.join(failed)))


if __name__ == '__main__':
    main()
