#!/usr/bin/env python3
"""corpus/agx/gl25msfetch: GLSL fragment shaders reading a 4-sample texture with
texelFetch(sampler2DMS, p, s) (Mesa's txf_ms), compiled and linked by Mesa 25.0.7's GLSL front
end and asahi compiler as its gallium driver does (tools/agx/glsl_graphics.c --glsl), with jobs.

glsl_graphics gives the sampler a 4x4 texture of 4 samples (2 with the header line
`// ms_samples: 2`), sample s of texel (x, y) holding
(16 x + 1, 16 y + 2, 64 s + 3, 0) at libagx's address (NAME.tex0.bin), and its TEXTURE and
SAMPLER descriptors. The jobs draw 16x16 pixels to a linear RGBA8 render target
(end_of_tile.bin, as tools/agx/gl25_corpus.py's). NAME.ref is llvmpipe's answer
(tools/agx/gl_fragment_ref.c with the spec line `ms_texture`: the same texture, drawn by a
sample-shaded fill pass since GL cannot upload multisampled data) as `X Y R G B A DEPTHBITS`;
tests/texture_ms.rs compares each pixel with it and with a host model of the shader.

Usage: gl25_msfetch.py MESA_NEW_WORKDIR DIR
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gl25_corpus  # noqa: E402

VERT = """#version 450
void main() { gl_Position = vec4(vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0, 0.0, 1.0); }
"""

# gl_fragment_ref's vertex shader: the triangle (-1,-1) (3,-1) (-1,3)
REF_VERT = """#version 450
const vec2 P[3] = vec2[](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
void main() { gl_Position = vec4(P[gl_VertexID], 0.0, 1.0); }
"""


def build(src_dir, name, compiler, ref):
    with tempfile.TemporaryDirectory() as tmp:
        vert2, spec = os.path.join(tmp, 'b.vert'), os.path.join(tmp, 'spec')
        open(vert2, 'w').write(REF_VERT)
        two = '\n// ms_samples: 2\n' in open(os.path.join(src_dir, name + '.frag')).read()
        open(spec, 'w').write('ms_texture 2\n' if two else 'ms_texture\n')
        px = subprocess.run([ref, vert2, os.path.join(src_dir, name + '.frag'), spec],
                            check=True, capture_output=True, text=True).stdout
        open(os.path.join(src_dir, name + '.ref'), 'w').write(px)
        vert, out = os.path.join(tmp, 'a.vert'), os.path.join(tmp, 'a')
        open(vert, 'w').write(VERT)
        env = dict(os.environ, GLSL_GRAPHICS_RTS='1', GLSL_GRAPHICS_SAMPLES='1',
                   GLSL_GRAPHICS_MS_SAMPLES='2' if two else '4')
        info = subprocess.run([compiler, '--glsl', vert, os.path.join(src_dir, name + '.frag'),
                               out], check=True, capture_output=True, text=True, env=env).stdout
        code = open(out + '.bin', 'rb').read()
        eot = open(out + '.eot.bin', 'rb').read()
        tex = open(out + '.tex0.bin', 'rb').read()
    kv, imm, desc, sampler = {}, [], None, None
    for line in info.splitlines():
        f = line.split()
        if f[0] == 'immediates':
            imm = [int(v) for v in f[1:]]
        elif f[0] == 'texture':
            desc = f[4:]
        elif f[0] == 'sampler_desc':
            sampler = f[2:]
        elif len(f) == 2:
            kv[f[0]] = int(f[1])
    if desc is None or kv.get('has_preamble'):
        raise SystemExit('%s: no texture, or a preamble this script does not place' % name)
    open(os.path.join(src_dir, name + '.bin'), 'wb').write(code)
    open(os.path.join(src_dir, 'end_of_tile.bin'), 'wb').write(eot)
    j = ['# %s.frag as Mesa 25.0.7 compiled and linked it (tools/agx/gl25_msfetch.py)' % name,
         'kind = "fragment"', 'abi = "mesa-25.0-linked"', 'code = "%s.bin"' % name,
         'nr_gprs = %d' % ((kv['nr_gprs'] + 1) // 2), '', '[gallium]', 'main_offset = 0',
         'sampler = [[0, 0], [%s]]' % ', '.join(sampler), '', '[end_of_tile]',
         'code = "end_of_tile.bin"', 'nr_gprs = %d' % ((kv['eot_nr_gprs'] + 1) // 2),
         'pbe = [%s]' % ', '.join(map(str, gl25_corpus.pbe_words())), 'image = "rt"', '',
         '[fragment]', 'width = 16', 'height = 16', 'coefficients = []', '',
         '[[buffer]]', 'name = "rt"', 'size = 1024', '',
         '[[buffer]]', 'name = "tex0"', 'u8 = [%s]' % ', '.join(map(str, tex)), '',
         '[[gallium.texture]]', 'descriptor = [%s]' % ', '.join(desc), 'buffer = "tex0"']
    for i, v in enumerate(imm[1:]):
        j += ['', '[[uniform]]', 'slot = %d' % (imm[0] + i), 'u16 = %d' % v]
    j += ['', '[[output]]', 'buffer = "rt"', 'format = "u8"', 'count = 1024']
    open(os.path.join(src_dir, name + '.job.toml'), 'w').write('\n'.join(j) + '\n')


def main():
    work, out_dir = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        compiler, ref = os.path.join(tmp, 'glsl_graphics'), os.path.join(tmp, 'gl_fragment_ref')
        subprocess.run(['sh', os.path.join(HERE, 'build_glsl_graphics.sh'), work, compiler],
                       check=True, capture_output=True)
        subprocess.run(['cc', '-O2', '-o', ref, os.path.join(HERE, 'gl_fragment_ref.c'), '-lEGL'],
                       check=True)
        for f in sorted(os.listdir(out_dir)):
            if f.endswith('.frag'):
                build(out_dir, f[:-5], compiler, ref)
                print(f[:-5])


if __name__ == '__main__':
    main()
