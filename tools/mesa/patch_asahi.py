#!/usr/bin/env python3
"""Give Mesa 22.3's asahi driver a way to write each compiled shader out (it has none).

With AGX_DUMP_DIR set, every shader the gallium driver compiles is written as
  NNNN.STAGE.bin   the machine code exactly as the driver uploads it
  NNNN.STAGE.txt   the facts the driver sets up around it: preamble/main offsets, register counts,
                   push (uniform) ranges, the VS varying slots or the FS coefficient bindings, the
                   shader key's render-target formats, and the NIR the code came from.
The inserted code is this project's; it is idempotent (a marker line guards it).
Usage: patch_asahi.py MESA_SOURCE_DIR
"""
import pathlib
import sys

MARK = "/* wavesim: AGX_DUMP_DIR */"

DUMP_FN = MARK + r"""
#include "compiler/nir/nir.h"
#include "util/format/u_format.h"
static void
wavesim_dump_shader(nir_shader *nir, const struct asahi_shader_key *key,
                    const struct util_dynarray *binary, const struct agx_shader_info *info)
{
   static unsigned seq;
   const char *dir = getenv("AGX_DUMP_DIR");
   if (!dir)
      return;
   const char *stage = nir->info.stage == MESA_SHADER_VERTEX ? "vs" :
                       nir->info.stage == MESA_SHADER_FRAGMENT ? "fs" : "cs";
   char path[4096];
   unsigned n = seq++;
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
    text = text.replace(CALL, CALL + "   wavesim_dump_shader(nir, key, &binary, &compiled->info);\n", 1)
    src.write_text(text)


if __name__ == "__main__":
    patch_asahi(pathlib.Path(sys.argv[1]))
