#!/usr/bin/env python3
"""Give Mesa 22.3's asahi driver a way to write each compiled shader out (it has none).

With AGX_DUMP_DIR set, every shader the gallium driver compiles is written as
  NNNN.STAGE.bin   the machine code exactly as the driver uploads it
  NNNN.STAGE.txt   the facts the driver sets up around it: preamble/main offsets, register counts,
                   push (uniform) ranges, the VS varying slots or the FS coefficient bindings, the
                   shader key's render-target formats, and the NIR the code came from.
At draw time, NNNN.STAGE.draw.txt records what the hardware is given for that shader (appended per
draw):
  push BASE LENGTH 0xADDR      a push range: LENGTH uniform halves from BASE are loaded from ADDR
  texture_state COUNT 0xADDR   the texture descriptors (cmdbuf.xml TEXTURE, 24 bytes each)
  sampler_state COUNT 0xADDR   the sampler descriptors (cmdbuf.xml SAMPLER)
  mem 0xADDR HEX               bytes the driver placed at a GPU address for this draw: the uniform
                               data, the arrays of UBO/VBO addresses, constant buffers, vertex
                               buffers, descriptors and texture images
The inserted code is this project's; it is idempotent (a marker line guards it).
Usage: patch_asahi.py MESA_SOURCE_DIR
"""
import pathlib
import sys

MARK = "/* wavesim: AGX_DUMP_DIR */"

DUMP_FN = MARK + r"""
#include "compiler/nir/nir.h"
#include "util/format/u_format.h"
#include <inttypes.h>
/* Which dump number each compiled variant got, so a draw can name its file. */
static struct { const void *cs; unsigned seq; const char *stage; } wavesim_variants[256];
static unsigned wavesim_nr_variants;
/* Open while agx_build_pipeline runs for a dumped variant: wavesim_region writes into it. */
FILE *wavesim_draw_file;

void wavesim_region(uint64_t gpu, const void *cpu, size_t size);
void
wavesim_region(uint64_t gpu, const void *cpu, size_t size)
{
   if (!wavesim_draw_file || !cpu)
      return;
   fprintf(wavesim_draw_file, "mem 0x%" PRIx64 " ", gpu);
   for (size_t i = 0; i < size; ++i)
      fprintf(wavesim_draw_file, "%02x", ((const uint8_t *)cpu)[i]);
   fprintf(wavesim_draw_file, "\n");
}

static void
wavesim_open_draw(const void *cs)
{
   const char *dir = getenv("AGX_DUMP_DIR");
   wavesim_draw_file = NULL;
   if (!dir)
      return;
   for (unsigned i = 0; i < wavesim_nr_variants; ++i) {
      if (wavesim_variants[i].cs == cs) {
         char path[4096];
         snprintf(path, sizeof(path), "%s/%04u.%s.draw.txt", dir, wavesim_variants[i].seq,
                  wavesim_variants[i].stage);
         wavesim_draw_file = fopen(path, "a");
         if (wavesim_draw_file)
            fprintf(wavesim_draw_file, "draw\n");
         return;
      }
   }
}

static void
wavesim_close_draw(void)
{
   if (wavesim_draw_file)
      fclose(wavesim_draw_file);
   wavesim_draw_file = NULL;
}

static void
wavesim_dump_shader(nir_shader *nir, const struct asahi_shader_key *key,
                    const struct util_dynarray *binary, const struct agx_shader_info *info,
                    const void *cs)
{
   static unsigned seq;
   const char *dir = getenv("AGX_DUMP_DIR");
   if (!dir)
      return;
   const char *stage = nir->info.stage == MESA_SHADER_VERTEX ? "vs" :
                       nir->info.stage == MESA_SHADER_FRAGMENT ? "fs" : "cs";
   char path[4096];
   unsigned n = seq++;
   if (wavesim_nr_variants < 256) {
      wavesim_variants[wavesim_nr_variants].cs = cs;
      wavesim_variants[wavesim_nr_variants].seq = n;
      wavesim_variants[wavesim_nr_variants++].stage = stage;
   }
   snprintf(path, sizeof(path), "%s/%04u.%s.bin", dir, n, stage);
   FILE *f = fopen(path, "wb");
   if (f) {
      fwrite(binary->data, 1, binary->size, f);
      fclose(f);
   }
   snprintf(path, sizeof(path), "%s/%04u.%s.txt", dir, n, stage);
   f = fopen(path, "w");
   if (!f)
      return;
   fprintf(f, "stage %s\nname %s\ninternal %d\nsize %u\n", stage,
           nir->info.name ? nir->info.name : "", nir->info.internal, binary->size);
   fprintf(f, "has_preamble %d\npreamble_offset %u\nmain_offset %u\n", info->has_preamble,
           info->preamble_offset, info->main_offset);
   fprintf(f, "nr_gprs %u\nnr_preamble_gprs %u\npush_count %u\n", info->nr_gprs,
           info->nr_preamble_gprs, info->push_count);
   fprintf(f, "reads_tib %d\nwrites_psiz %d\nwrites_sample_mask %d\nno_colour_output %d\n",
           info->reads_tib, info->writes_psiz, info->writes_sample_mask, info->no_colour_output);
   for (unsigned i = 0; i < info->push_ranges; ++i) {
      const struct agx_push *p = &info->push[i];
      fprintf(f, "push type=%u base=%u length=%u indirect=%d ubo=%u offset=%u vbo=%u\n",
              p->type, p->base, p->length, p->indirect, p->ubo_data.ubo, p->ubo_data.offset,
              p->vbo);
   }
   if (nir->info.stage == MESA_SHADER_VERTEX) {
      const struct agx_varyings_vs *v = &info->varyings.vs;
      fprintf(f, "vs_base_index_fp16 %u\nvs_nr_index %u\n", v->base_index_fp16, v->nr_index);
      for (unsigned s = 0; s < VARYING_SLOT_MAX; ++s)
         if (v->slots[s] != ~0u)
            fprintf(f, "vs_slot %s %u\n", gl_varying_slot_name_for_stage(s, MESA_SHADER_VERTEX),
                    v->slots[s]);
      for (unsigned a = 0; a < AGX_MAX_ATTRIBS; ++a) {
         const struct agx_attribute *at = &key->base.vs.attributes[a];
         fprintf(f, "vs_attrib %u buf=%u src_offset=%u nr_comps_minus_1=%u format=%u divisor=%u\n",
                 a, at->buf, at->src_offset, at->nr_comps_minus_1, at->format, at->divisor);
      }
      for (unsigned b = 0; b < AGX_MAX_VBUFS; ++b)
         fprintf(f, "vs_vbuf_stride %u %u\n", b, key->base.vs.vbuf_strides[b]);
   } else if (nir->info.stage == MESA_SHADER_FRAGMENT) {
      const struct agx_varyings_fs *v = &info->varyings.fs;
      fprintf(f, "fs_nr_cf %u\nfs_nr_bindings %u\nfs_reads_z %d\n", v->nr_cf, v->nr_bindings,
              v->reads_z);
      for (unsigned b = 0; b < v->nr_bindings; ++b)
         fprintf(f, "fs_binding cf_base=%u slot=%s offset=%u count=%u smooth=%d perspective=%d\n",
                 v->bindings[b].cf_base,
                 gl_varying_slot_name_for_stage(v->bindings[b].slot, MESA_SHADER_FRAGMENT),
                 v->bindings[b].offset, v->bindings[b].count, v->bindings[b].smooth,
                 v->bindings[b].perspective);
      fprintf(f, "fs_nr_cbufs %u\n", key->nr_cbufs);
      for (unsigned r = 0; r < AGX_MAX_RTS; ++r)
         fprintf(f, "fs_tib_format %u %u\n", r, key->base.fs.tib_formats[r]);
      for (unsigned r = 0; r < PIPE_MAX_COLOR_BUFS; ++r)
         fprintf(f, "fs_rt_format %u %s\n", r, util_format_name(key->rt_formats[r]));
   }
   fprintf(f, "nir_begin\n");
   nir_print_shader(nir, f);
   fprintf(f, "nir_end\n");
   fclose(f);
}
"""

# agx_build_pipeline: open the draw file for the variant, record the descriptor arrays, each
# texture's image and each push range's address; close it at the end.
PIPELINE_EDITS = [
    ("""   struct agx_texture_packed *textures = T_tex.cpu;
   struct agx_sampler_packed *samplers = T_samp.cpu;
""", """   struct agx_texture_packed *textures = T_tex.cpu;
   struct agx_sampler_packed *samplers = T_samp.cpu;
   wavesim_open_draw(cs);
"""),
    ("""   struct agx_usc_builder b =
      agx_alloc_usc_control(&ctx->batch->pipeline_pool,
                           cs->info.push_ranges + 2);
""", """   if (wavesim_draw_file) {
      for (unsigned i = 0; i < nr_textures; ++i) {
         struct agx_bo *bo = agx_resource(ctx->stage[stage].textures[i]->base.texture)->bo;
         wavesim_region(bo->ptr.gpu, bo->ptr.cpu, bo->size);
      }
      fprintf(wavesim_draw_file, "texture_state %u 0x%" PRIx64 "\\n", nr_textures, T_tex.gpu);
      wavesim_region(T_tex.gpu, T_tex.cpu, AGX_TEXTURE_LENGTH * nr_textures);
      fprintf(wavesim_draw_file, "sampler_state %u 0x%" PRIx64 "\\n", nr_samplers, T_samp.gpu);
      wavesim_region(T_samp.gpu, T_samp.cpu, AGX_SAMPLER_LENGTH * nr_samplers);
   }
   struct agx_usc_builder b =
      agx_alloc_usc_control(&ctx->batch->pipeline_pool,
                           cs->info.push_ranges + 2);
"""),
    ("""      agx_usc_uniform(&b, cs->info.push[i].base, cs->info.push[i].length,
                      agx_push_location(ctx, cs->info.push[i], stage));
   }
""", """      uint64_t wavesim_loc = agx_push_location(ctx, cs->info.push[i], stage);
      if (wavesim_draw_file)
         fprintf(wavesim_draw_file, "push %u %u 0x%" PRIx64 "\\n", cs->info.push[i].base,
                 cs->info.push[i].length, wavesim_loc);
      agx_usc_uniform(&b, cs->info.push[i].base, cs->info.push[i].length, wavesim_loc);
   }
   wavesim_close_draw();
"""),
]

# agx_push_location_direct / agx_push_location: record every region a push range points into.
UNIFORM_EDITS = [
    ("""         addresses[i] = agx_const_buffer_ptr(batch, cb);
      }
""", """         addresses[i] = agx_const_buffer_ptr(batch, cb);
         if (cb->buffer)
            wavesim_region(addresses[i], (uint8_t *)agx_resource(cb->buffer)->bo->ptr.cpu +
                           cb->buffer_offset, cb->buffer_size);
         else
            wavesim_region(addresses[i], (uint8_t *)cb->user_buffer + cb->buffer_offset,
                           cb->buffer_size - cb->buffer_offset);
      }
      wavesim_region(ptr.gpu, ptr.cpu, count * sizeof(uint64_t));
"""),
    ("""      *address = bo->ptr.gpu + vb.buffer_offset;
      return ptr.gpu;
""", """      *address = bo->ptr.gpu + vb.buffer_offset;
      wavesim_region(*address, (uint8_t *)bo->ptr.cpu + vb.buffer_offset,
                     bo->size - vb.buffer_offset);
      wavesim_region(ptr.gpu, ptr.cpu, sizeof(uint64_t));
      return ptr.gpu;
"""),
    ("""      return agx_pool_upload_aligned(&batch->pool, &ctx->blend_color,
            sizeof(ctx->blend_color), 8);
""", """      uint64_t wavesim_at = agx_pool_upload_aligned(&batch->pool, &ctx->blend_color,
            sizeof(ctx->blend_color), 8);
      wavesim_region(wavesim_at, &ctx->blend_color, sizeof(ctx->blend_color));
      return wavesim_at;
"""),
    ("""      *address = batch->textures;
      return ptr.gpu;
""", """      *address = batch->textures;
      wavesim_region(ptr.gpu, ptr.cpu, sizeof(uint64_t));
      return ptr.gpu;
"""),
    ("""   if (push.indirect)
      return agx_pool_upload(pool, &direct, sizeof(direct));
""", """   if (push.indirect) {
      uint64_t wavesim_at = agx_pool_upload(pool, &direct, sizeof(direct));
      wavesim_region(wavesim_at, &direct, sizeof(direct));
      return wavesim_at;
   }
"""),
]

CALL = "   agx_compile_shader_nir(nir, &key->base, debug, &binary, &compiled->info);\n"


def patch_asahi(root: pathlib.Path) -> None:
    src = root / "src/gallium/drivers/asahi/agx_state.c"
    text = src.read_text()
    if MARK in text:
        return
    anchor = "static struct agx_compiled_shader *\nagx_compile_variant("
    if anchor not in text or CALL not in text:
        sys.exit(f"{src}: the places this patch expects are not there (not Mesa 22.3.6?)")
    text = text.replace(anchor, DUMP_FN + "\n" + anchor, 1)
    text = text.replace(
        CALL, CALL + "   wavesim_dump_shader(nir, key, &binary, &compiled->info, compiled);\n", 1)
    for old, new in PIPELINE_EDITS:
        if text.count(old) != 1:
            sys.exit(f"{src}: expected exactly one of {old!r}")
        text = text.replace(old, new, 1)
    src.write_text(text)

    uni = root / "src/gallium/drivers/asahi/agx_uniforms.c"
    text = uni.read_text()
    text = text.replace('#include "asahi/lib/agx_pack.h"\n',
                        '#include "asahi/lib/agx_pack.h"\n' + MARK +
                        "\nvoid wavesim_region(uint64_t gpu, const void *cpu, size_t size);\n", 1)
    for old, new in UNIFORM_EDITS:
        if text.count(old) != 1:
            sys.exit(f"{uni}: expected exactly one of {old!r}")
        text = text.replace(old, new, 1)
    uni.write_text(text)


def patch_sw_helper(root: pathlib.Path) -> None:
    """Let GALLIUM_DRIVER=asahi pick the driver through the software-screen path on Linux: 22.3's
    sw_helper.h offers it only `&& __APPLE__`, though the driver's device layer stubs IOKit out
    elsewhere (agx_device.c fakes its buffers with calloc). The default driver list is untouched."""
    src = root / "src/gallium/auxiliary/target-helpers/sw_helper.h"
    text = src.read_text()
    if MARK in text:
        return
    inc = '#if defined(GALLIUM_ASAHI) && __APPLE__\n#include "asahi/agx_public.h"'
    make = ('#if defined(GALLIUM_ASAHI) && __APPLE__\n   if (screen == NULL && strcmp(driver, "asahi")'
            ' == 0)')
    if inc not in text or make not in text:
        sys.exit(f"{src}: the places this patch expects are not there (not Mesa 22.3.6?)")
    text = text.replace(inc, MARK + '\n#if defined(GALLIUM_ASAHI)\n#include "asahi/agx_public.h"', 1)
    text = text.replace(make, make.replace(" && __APPLE__", ""), 1)
    src.write_text(text)


if __name__ == "__main__":
    patch_asahi(pathlib.Path(sys.argv[1]))
    patch_sw_helper(pathlib.Path(sys.argv[1]))
