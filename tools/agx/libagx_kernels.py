#!/usr/bin/env python3
"""Extract Mesa 25.0's precompiled libagx compute kernels (G13) into wavesim's grid-kernel form.

Mesa 25.0 builds its internal OpenCL kernels (src/asahi/libagx/*.cl) with asahi_clc into
build/src/asahi/lib/libagx_shaders.c: per kernel, variant and target an array of 32-bit words
holding `struct agx_precompiled_kernel_info` (agx_compile.h: preamble_offset, main_offset,
main_size, binary_size as u32; agx_rodata {offset u32, base_uniform u16, size_16 u16}; nr_gprs,
nr_preamble_gprs, push_count, workgroup_size[3], local_size, imageblock_stride as u16; uses_txf
bool; 44 bytes with padding) followed by the binary. libagx_shaders.h declares each kernel's
argument layout as a packed `struct NAME_args` (nir_precomp_print_layout_struct: `uintN_t name`
or `uintN_t name[c]`, `uint8_t _padK[n]` between them).

For each kernel named, this writes OUT/NAME.vV.bin (the binary: main part at main_offset, the
preamble at preamble_offset, the promoted constants (rodata) at rodata.offset) and OUT/NAME.vV.toml
in the report form wavesim_agx::kernel::GridKernel reads (tools/agx/build_clc_grid_kernels.sh):
the arguments' [byte offset, components, bits], registers, preamble, and the rodata as the 16-bit
immediates the driver pushes at base_uniform (Mesa's agx_usc_immediates).

Usage: libagx_kernels.py BUILD_DIR OUT TARGET NAME[:VARIANT] ...   (TARGET g13g or g13x)
"""
import os
import re
import struct
import sys


def layouts(header):
    out = {}
    for m in re.finditer(r'struct (\w+)_args \{\n(.*?)\} PACKED;', header, re.S):
        args, offset = [], 0
        for line in m.group(2).splitlines():
            f = re.match(r'\s*uint(\d+)_t (\w+)(?:\[(\d+)\])?;', line)
            if not f:
                raise SystemExit('unparsed layout line: %r' % line)
            bits, name, count = int(f.group(1)), f.group(2), int(f.group(3) or 1)
            if name.startswith('_pad'):
                offset += count
                continue
            args.append((offset, count, bits, name))
            offset += count * bits // 8
        out[m.group(1)] = (args, offset)
    return out


def blobs(source):
    out = {}
    for m in re.finditer(r'const uint32_t (\w+)\[\d+\] = \{(.*?)\};', source, re.S):
        words = [int(w, 16) for w in re.findall(r'0x([0-9a-f]+)', m.group(2))]
        out[m.group(1)] = struct.pack('<%dI' % len(words), *words)
    return out


def write_kernel(stem, data, entry, args, args_size, comment, scratch=0):
    """STEM.bin and STEM.toml from `data`, a struct agx_precompiled_kernel_info followed by the
    binary (the form asahi_clc prints and tools/agx/glsl_compute.c writes); `args` are
    (byte offset, components, bits, name). Returns (size, main_offset, main_size,
    preamble_offset, immediates)."""
    (pre_off, main_off, main_size, size, ro_off, ro_base, ro_size, gprs, pre_gprs, push,
     wg0, wg1, wg2, local, _imageblock, _txf) = struct.unpack_from('<4IIHH8H?', data, 0)
    code = data[44:44 + size]
    immediates = list(struct.unpack_from('<%dH' % ro_size, code, ro_off)) if ro_size else []
    with open(stem + '.bin', 'wb') as f:
        f.write(code)
    with open(stem + '.toml', 'w') as f:
        f.write('# %s\n' % comment)
        f.write('entry = "%s"\n' % entry)
        f.write('# arguments: %s\n' % ', '.join(a[3] for a in args))
        f.write('workgroup = [%d, %d, %d]\n' % (wg0, wg1, wg2))
        f.write('args = [%s]\n' % ', '.join('[%d, %d, %d]' % tuple(a[:3]) for a in args))
        f.write('args_size = %d\n' % args_size)
        f.write('nr_gprs = %d\nnr_preamble_gprs = %d\n' % (gprs, pre_gprs))
        f.write('preamble_offset = %d\nmain_offset = %d\n' % (pre_off, main_off))
        f.write('push_count = %d\nlocal_size = %d\nscratch = %d\n' % (push, local, scratch))
        f.write('immediate_base = %d\nhas_preamble = %s\n'
                % (ro_base, 'true' if pre_gprs > 0 else 'false'))
        f.write('immediates = [%s]\n' % ', '.join(str(v) for v in immediates))
    return size, main_off, main_size, pre_off, immediates


def main():
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    build, out_dir, target = sys.argv[1], sys.argv[2], sys.argv[3]
    lib = os.path.join(build, 'src/asahi/lib')
    lay = layouts(open(os.path.join(lib, 'libagx_shaders.h')).read())
    blob = blobs(open(os.path.join(lib, 'libagx_shaders.c')).read())
    os.makedirs(out_dir, exist_ok=True)
    for spec in sys.argv[4:]:
        name, _, variant = spec.partition(':')
        variant = int(variant or 0)
        data = blob['%s_%d_%s' % (name, variant, target)]
        args, args_size = lay[name]
        stem = os.path.join(out_dir, '%s.v%d' % (name, variant))
        size, main_off, main_size, pre_off, immediates = write_kernel(
            stem, data, name, args, args_size,
            'Mesa 25.0.7 libagx kernel %s, variant %d, %s (tools/agx/libagx_kernels.py)'
            % (name, variant, target))
        print('%s.v%d: %d bytes, main %d (%d bytes), preamble %d, %d args, %d immediates'
              % (name, variant, size, main_off, main_size, pre_off, len(args), len(immediates)))


if __name__ == '__main__':
    main()
