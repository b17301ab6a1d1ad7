#!/usr/bin/env python3
"""corpus/agx/piglit: piglit's compute shader_tests as GLSL 4.50 shaders for
tools/agx/glsl_compute_corpus.py (which compiles them with Mesa 25.0.7's asahi compiler and runs
llvmpipe for the reference).

Piglit's tests are GL programs; this rewrites each as the GL state tracker lowers it for a driver
without atomic-counter hardware (Mesa's nir_lower_atomics_to_ssbo, which asahi gets): the atomic
counters of binding 0 become words of one storage buffer (binding 15; a counter's word is its
offset / 4, offsets assigned in declaration order as GL 4.6, 4.4.6.3 says), atomicCounterIncrement
/ Decrement / atomicCounter become atomicAdd of 1 / 0xffffffff (minus one) / 0; the default block's
scalar uniforms become a std140 uniform block (binding 14) holding the values the [test] section
sets; a storage block without a binding gets GL's default, 0, and std430 where it names no layout.
The [test] section must hold one `compute` and only these commands: `atomic counters N`, `ssbo B
SIZE`, `ssbo B subdata TYPE OFFSET V...`, `uniform TYPE NAME V`, `probe atomic counter N == V`,
`probe ssbo TYPE B OFFSET == V...`. Piglit's probes are kept as `// probe: BINDING WORD VALUE` lines
that tests/glsl_compute.rs checks as well as llvmpipe's whole buffers.

Usage: piglit_compute.py PIGLIT_CHECKOUT OUT_DIR   (then glsl_compute_corpus.py MESA_NEW OUT_DIR)
Prints one line per compute shader_test: the name written, or why it was left out.
"""
import os
import re
import struct
import sys

COUNTERS, UNIFORMS = 15, 14
PACK = {'int': '<i', 'uint': '<I', 'float': '<f', 'int64': '<q', 'uint64': '<Q'}
SKIP = ('image', 'sampler', 'texture', 'double', 'clockARB', 'clock2x32', 'gl_SubGroup',
        'variable', 'derivative')


def words_of(kind, values):
    out = b''
    for v in values:
        if kind == 'float':
            out += struct.pack('<f', float(v))
        else:
            out += struct.pack(PACK[kind], int(v, 0))
    return list(struct.unpack('<%dI' % (len(out) // 4), out))


def sections(text):
    out, name = {}, None
    for line in text.splitlines():
        m = re.match(r'^\[(.*)\]\s*$', line)
        if m:
            name = m.group(1)
            if name in out:
                name = 'several ' + name
            out[name] = []
        elif name:
            out[name].append(line)
    return {k: '\n'.join(v) for k, v in out.items()}


def convert(text):
    s = sections(text)
    if 'several compute shader' in s:
        return None, 'several compute shader sections (one program from separate shaders)'
    if 'compute shader' not in s or 'test' not in s:
        return None, 'no compute shader or test section'
    if 'compute shader spirv' in s or 'require' in s and 'SPIRV' in s['require']:
        return None, 'a SPIR-V program'
    src = s['compute shader']
    for word in SKIP:
        if word in src:
            return None, 'uses %s' % word
    lines = [line for line in src.splitlines()
             if not re.match(r'\s*#\s*version\b', line)
             and not re.match(r'\s*#\s*extension\s+GL_ARB_(compute_shader|shader_atomic_counters'
                              r'|shader_storage_buffer_object)\b', line)]
    src = '\n'.join(lines)
    # atomic counters
    counters, offsets = {}, {}
    for m in re.finditer(r'layout\s*\(([^)]*)\)\s*uniform\s+atomic_uint\s+(\w+)\s*(\[)?', src):
        if m.group(3):
            return None, 'an atomic counter array'
        q = dict((k.strip(), v.strip()) for k, _, v in
                 (p.partition('=') for p in m.group(1).split(',')))
        binding = int(q.get('binding', '0'))
        if binding != 0:
            return None, 'atomic counters at binding %d' % binding
        off = int(q['offset'], 0) if 'offset' in q else offsets.get(binding, 0)
        offsets[binding] = off + 4
        counters[m.group(2)] = off // 4
    src = re.sub(r'layout\s*\([^)]*\)\s*uniform\s+atomic_uint\s+\w+\s*;', '', src)
    # default-block uniforms
    uniforms = []
    for m in re.finditer(r'^\s*uniform\s+(uint|int|float)\s+(\w+)\s*;', src, re.M):
        uniforms.append((m.group(1), m.group(2)))
    src = re.sub(r'^\s*uniform\s+(uint|int|float)\s+\w+\s*;', '', src, flags=re.M)
    if re.search(r'^\s*uniform\s+\w+\s+\w+\s*;', src, re.M):
        return None, 'a default-block uniform that is not a scalar'

    def block_layout(m):
        q = m.group(1)
        if 'binding' not in q:
            q += ', binding = 0'
        if 'std430' not in q and 'std140' not in q and 'packed' not in q and 'shared' not in q:
            q += ', std430'
        return 'layout(%s)%s' % (q.strip(', '), m.group(2))
    src = re.sub(r'layout\s*\(([^)]*)\)(\s*(?:(?:readonly|writeonly|coherent|restrict|volatile)'
                 r'\s+)*buffer\b)', block_layout, src)
    src = re.sub(r'^(\s*)((?:(?:readonly|writeonly|coherent|restrict|volatile)\s+)*buffer\s+\w+'
                 r'\s*\{)', r'\1layout(std430, binding = 0) \2', src, flags=re.M)

    head = ['#version 450']
    body = []
    if counters:
        body.append('layout(std430, binding = %d) buffer wavesim_atomic_counters '
                    '{ uint wavesim_ac[%d]; };' % (COUNTERS, max(counters.values()) + 1))
        body.append('#define atomicCounterIncrement(c) atomicAdd(c, 1u)')
        body.append('#define atomicCounterDecrement(c) (atomicAdd(c, 0xffffffffu) - 1u)')
        body.append('#define atomicCounter(c) atomicAdd(c, 0u)')
        body.append('#define memoryBarrierAtomicCounter() memoryBarrierBuffer()')
        for name, w in counters.items():
            body.append('#define %s wavesim_ac[%d]' % (name, w))
    if uniforms:
        body.append('layout(std140, binding = %d) uniform wavesim_uniforms { %s };'
                    % (UNIFORMS, ' '.join('%s %s;' % u for u in uniforms)))
    # extensions must come before any other line
    ext = [line for line in src.splitlines() if re.match(r'\s*#\s*extension', line)]
    rest = [line for line in src.splitlines() if not re.match(r'\s*#\s*extension', line)]

    buffers, probes, groups, uvalues = {}, [], None, {}
    ncounters = 0
    for line in s['test'].splitlines():
        f = line.split('#')[0].split()
        if not f:
            continue
        if f[:2] == ['atomic', 'counters']:
            ncounters = int(f[2])
        elif f[0] == 'ssbo' and len(f) == 3:
            buffers[int(f[1])] = [0] * ((int(f[2]) + 3) // 4)
        elif f[0] == 'ssbo' and f[2] == 'subdata':
            b, off = int(f[1]), int(f[4])
            w = words_of(f[3], f[5:])
            buf = buffers.setdefault(b, [])
            if off % 4:
                return None, 'unaligned subdata'
            need = off // 4 + len(w)
            buf.extend([0] * max(0, need - len(buf)))
            buf[off // 4:need] = w
        elif f[0] == 'uniform' and f[1] in ('uint', 'int', 'float'):
            uvalues[f[2]] = words_of(f[1], [f[3]])[0]
        elif f[0] == 'compute':
            if groups:
                return None, 'several dispatches'
            groups = [int(v) for v in f[1:4]]
        elif f[:3] == ['probe', 'atomic', 'counter'] and f[4] == '==':
            probes.append((COUNTERS, int(f[3]), int(f[5], 0) & 0xffffffff))
        elif f[:2] == ['probe', 'ssbo'] and f[5] == '==':
            for i, w in enumerate(words_of(f[2], f[6:])):
                probes.append((int(f[3]), int(f[4]) // 4 + i, w))
        else:
            return None, 'test command %r' % line.strip()
    if not groups:
        return None, 'no dispatch'
    if counters:
        buffers[COUNTERS] = [0] * max(ncounters, max(counters.values()) + 1)
    if uniforms:
        missing = [n for _, n in uniforms if n not in uvalues]
        if missing:
            return None, 'uniforms without values: %s' % missing
        buffers[UNIFORMS] = [uvalues[n] for _, n in uniforms]
        buffers[UNIFORMS] += [0] * (-len(buffers[UNIFORMS]) % 4)
    bindings = set(int(b) for b in re.findall(r'binding\s*=\s*(\d+)', '\n'.join(rest)))
    for b in bindings - set(buffers):
        buffers[b] = [0] * 64
    meta = ['// groups: %s' % ' '.join(map(str, groups))]
    for b in sorted(buffers):
        kind = 'ubo' if b == UNIFORMS else 'ssbo'
        w = buffers[b]
        meta.append('// buffer: %d %s %s' % (b, kind, 'zero %d' % len(w) if not any(w) else
                                             'words ' + ' '.join('0x%x' % v for v in w)))
    for b, i, v in probes:
        meta.append('// probe: %d %d 0x%x' % (b, i, v))
    out = head + ext + meta + body + rest
    return '\n'.join(out) + '\n', None


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    root, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    spec = os.path.join(root, 'tests', 'spec')
    for d, _, files in sorted(os.walk(spec)):
        for n in sorted(files):
            if not n.endswith('.shader_test'):
                continue
            text = open(os.path.join(d, n)).read()
            if '[compute shader' not in text:
                continue
            rel = os.path.relpath(os.path.join(d, n), spec)
            src, why = convert(text)
            if why:
                print('skip %s: %s' % (rel, why))
                continue
            name = rel[:-len('.shader_test')].replace('/execution/', '/').replace('/', '__')
            name = name.replace('-', '_')
            with open(os.path.join(out_dir, name + '.comp'), 'w') as f:
                f.write('// piglit tests/spec/%s, rewritten by tools/agx/piglit_compute.py\n' % rel)
                f.write(src)
            print('wrote %s' % name)


if __name__ == '__main__':
    main()
