#!/usr/bin/env python3
"""Give Mesa 22.3's r600 driver a way to write each finished shader out as machine code (R600_DEBUG
prints a listing, but not the facts the driver programs around a shader in a form to take apart).

With R600_DUMP_DIR set, every shader the driver finishes (after the SB optimiser: exactly the words
store_shader uploads) is written as NNNN.STAGE.bin/.txt (STAGE = vs, ps, gs, ...; the .txt holds the
GPR and stack counts, the inputs/outputs with their semantics, GPRs and interpolation, the PS key and
DB_SHADER_CONTROL, and the TGSI or NIR source), and every vertex fetch shader as NNNN.fetch.bin/.txt
with the vertex elements it fetches.
The inserted code is this project's; it is idempotent (a marker line guards each file).
Usage: patch_r600.py MESA_SOURCE_DIR
"""
import pathlib
import sys

R600_MARK = "/* wavesim: R600_DUMP_DIR */"

R600_DUMP_FN = R600_MARK + r"""
#include "util/u_atomic.h"
#include "util/format/u_format.h"
static unsigned wavesim_dump_seq;
FILE *wavesim_dump_open(const char *stage, const uint32_t *words, unsigned ndw);
FILE *
wavesim_dump_open(const char *stage, const uint32_t *words, unsigned ndw)
{
   const char *dir = getenv("R600_DUMP_DIR");
   if (!dir)
      return NULL;
   char path[4096];
   unsigned n = p_atomic_inc_return(&wavesim_dump_seq) - 1;
   snprintf(path, sizeof(path), "%s/%04u.%s.bin", dir, n, stage);
   FILE *f = fopen(path, "wb");
   if (f) {
      fwrite(words, 4, ndw, f);
      fclose(f);
   }
   snprintf(path, sizeof(path), "%s/%04u.%s.txt", dir, n, stage);
   return fopen(path, "w");
}
"""

R600_SHADER_DUMP = r"""
static void
wavesim_dump_r600_shader(struct r600_context *rctx, struct r600_pipe_shader *shader)
{
   static const char *const stages[] = { "vs", "ps", "gs", "hs", "ds", "cs" };
   const struct r600_shader *s = &shader->shader;
   unsigned stage = tgsi_processor_to_shader_stage(s->processor_type);
   FILE *f = wavesim_dump_open(s->processor_type < 6 ? stages[s->processor_type] : "unknown",
                               s->bc.bytecode, s->bc.ndw);
   if (!f)
      return;
   fprintf(f, "family %s\ngfx_level %u\nstage %s\nndw %u\nngpr %u\nnstack %u\nncf %u\n",
           rctx->b.screen->get_name(rctx->b.screen), rctx->b.gfx_level,
           _mesa_shader_stage_to_abbrev(stage), s->bc.ndw, s->bc.ngpr, s->bc.nstack, s->bc.ncf);
   fprintf(f, "uses_kill %d\nfs_write_all %d\nnr_ps_color_exports %u\nps_color_export_mask 0x%x\n",
           s->uses_kill, s->fs_write_all, s->nr_ps_color_exports, s->ps_color_export_mask);
   fprintf(f, "db_shader_control 0x%x\nps_nr_cbufs %u\nvs_as_es %u\nscratch_vec4 %u\n",
           shader->db_shader_control, shader->key.ps.nr_cbufs, shader->key.vs.as_es,
           shader->scratch_space_needed);
   for (unsigned i = 0; i < s->ninput; ++i)
      fprintf(f, "input %u name=%u sid=%u spi_sid=%d gpr=%u interpolate=%u location=%u "
                 "write_mask=0x%x back_color_input=%u\n",
              i, s->input[i].name, s->input[i].sid, s->input[i].spi_sid, s->input[i].gpr,
              s->input[i].interpolate, s->input[i].interpolate_location, s->input[i].write_mask,
              s->input[i].back_color_input);
   for (unsigned i = 0; i < s->noutput; ++i)
      fprintf(f, "output %u name=%u sid=%u spi_sid=%d gpr=%u write_mask=0x%x\n", i,
              s->output[i].name, s->output[i].sid, s->output[i].spi_sid, s->output[i].gpr,
              s->output[i].write_mask);
   fprintf(f, "source_begin\n");
   if (shader->selector->ir_type == PIPE_SHADER_IR_TGSI)
      tgsi_dump_to_file(shader->selector->tokens, 0, f);
   else
      nir_print_shader(shader->selector->nir, f);
   fprintf(f, "source_end\n");
   fclose(f);
}
"""

R600_STORE = "\t/* Store the shader in a buffer. */\n\tif ((r = store_shader(ctx, shader)))"

R600_FETCH_DUMP = r"""
	{
		FILE *wf = wavesim_dump_open("fetch", bc.bytecode, bc.ndw);
		if (wf) {
			fprintf(wf, "gfx_level %u\nresource_start %u\nelements %u\n", rctx->b.gfx_level,
			        fetch_resource_start, count);
			for (i = 0; i < count; i++)
				fprintf(wf, "element %d buffer=%u src_offset=%u format=%s divisor=%u\n", i,
				        elements[i].vertex_buffer_index, elements[i].src_offset,
				        util_format_name(elements[i].src_format), elements[i].instance_divisor);
			fclose(wf);
		}
	}
"""

R600_FETCH_ANCHOR = "\tfs_size = bc.ndw*4;\n"


def patch_r600(root: pathlib.Path) -> None:
    # The dump helpers live in r600_asm.c (declared there before use) and r600_shader.c.
    asm = root / "src/gallium/drivers/r600/r600_asm.c"
    text = asm.read_text()
    if R600_MARK not in text:
        anchor = "void *r600_create_vertex_fetch_shader("
        if anchor not in text or R600_FETCH_ANCHOR not in text:
            sys.exit(f"{asm}: the places this patch expects are not there (not Mesa 22.3.6?)")
        text = text.replace(anchor, R600_DUMP_FN + anchor, 1)
        text = text.replace(R600_FETCH_ANCHOR, R600_FETCH_DUMP + R600_FETCH_ANCHOR, 1)
        asm.write_text(text)
    sh = root / "src/gallium/drivers/r600/r600_shader.c"
    text = sh.read_text()
    if R600_MARK not in text:
        anchor = "int r600_pipe_shader_create("
        if anchor not in text or R600_STORE not in text:
            sys.exit(f"{sh}: the places this patch expects are not there (not Mesa 22.3.6?)")
        decl = (R600_MARK + "\n#include \"tgsi/tgsi_dump.h\"\n"
                "FILE *wavesim_dump_open(const char *stage, const uint32_t *words, unsigned ndw);\n")
        text = text.replace(anchor, decl + R600_SHADER_DUMP + "\n" + anchor, 1)
        text = text.replace(R600_STORE, "\twavesim_dump_r600_shader(rctx, shader);\n" + R600_STORE, 1)
        sh.write_text(text)


if __name__ == "__main__":
    patch_r600(pathlib.Path(sys.argv[1]))
