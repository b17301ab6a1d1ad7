#!/usr/bin/env python3
"""Give Mesa 22.3's r600 driver a way to write each finished shader out as machine code (R600_DEBUG
prints a listing, but not the facts the driver programs around a shader in a form to take apart).

With R600_DUMP_DIR set, every shader the driver finishes (after its optimisers: exactly the words
store_shader uploads; Mesa 22.3 compiles R700 shaders from NIR with the sfn back end) is written as NNNN.STAGE.bin/.txt (STAGE = vs, ps, gs, ...; the .txt holds the
GPR and stack counts, the inputs/outputs with their semantics, GPRs and interpolation, the PS key and
DB_SHADER_CONTROL, and the TGSI or NIR source), and every vertex fetch shader as NNNN.fetch.bin/.txt
with the vertex elements it fetches; every draw writes NNNN.draw.txt (wavesim_dump_draw: the shaders'
words and register writes, constant buffers, texture resource/sampler words and vertex buffers).
The radeon no-op DRM shim also gets the PCI identity libdrm needs to list its fake render node
(and __readlink_chk for a fortified libdrm), without which EGL never loads r600.
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
   if (words) {
      snprintf(path, sizeof(path), "%s/%04u.%s.bin", dir, n, stage);
      FILE *f = fopen(path, "wb");
      if (f) {
         fwrite(words, 4, ndw, f);
         fclose(f);
      }
   }
   snprintf(path, sizeof(path), "%s/%04u.%s.txt", dir, n, stage);
   return fopen(path, "w");
}
"""

R600_SHADER_DUMP = r"""
static void
wavesim_dump_r600_shader(struct r600_context *rctx, struct r600_pipe_shader *shader)
{
   /* pipe_shader_type order (shader_enums.h) */
   static const char *const stages[] = { "vs", "hs", "ds", "gs", "ps", "cs" };
   const struct r600_shader *s = &shader->shader;
   unsigned stage = tgsi_processor_to_shader_stage(s->processor_type);
   FILE *f = wavesim_dump_open(s->processor_type < 6 ? stages[s->processor_type] : "unknown",
                               s->bc.bytecode, s->bc.ndw);
   if (!f)
      return;
   fprintf(f, "family %s\ngfx_level %u\nstage %s\nndw %u\nngpr %u\nnstack %u\nncf %u\n",
           rctx->b.b.screen->get_name(rctx->b.b.screen), rctx->b.gfx_level,
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

R600_DRAW_DUMP = R600_MARK + r"""
#include "util/format/u_format.h"
FILE *wavesim_dump_open(const char *stage, const uint32_t *words, unsigned ndw);
/* Everything the draw binds around the shaders it runs: their words (to find their .bin), the
 * register writes the driver made for them (SPI_PS_INPUT_CNTL_*, SQ_PGM_RESOURCES_*, ...), the
 * constant buffers' bytes, the texture resource and sampler words per unit, and the vertex
 * buffers' bytes. */
static void
wavesim_dump_words(FILE *f, const char *what, const uint32_t *w, unsigned n)
{
   fprintf(f, "%s %u", what, n);
   for (unsigned i = 0; i < n; i++)
      fprintf(f, " %08x", w[i]);
   fprintf(f, "\n");
}

static void
wavesim_dump_buffer(FILE *f, struct r600_context *rctx, const char *what, unsigned index,
                    struct pipe_resource *buf, unsigned offset, unsigned size)
{
   struct r600_resource *res = (struct r600_resource *)buf;
   if (!res || !res->buf) {
      fprintf(f, "%s %u unmapped\n", what, index);
      return;
   }
   if (size > res->b.b.width0 - MIN2(offset, res->b.b.width0))
      size = res->b.b.width0 - MIN2(offset, res->b.b.width0);
   uint8_t *ptr = r600_buffer_map_sync_with_rings(&rctx->b, res,
                                                  PIPE_MAP_READ | PIPE_MAP_UNSYNCHRONIZED);
   if (!ptr) {
      fprintf(f, "%s %u unmapped\n", what, index);
      return;
   }
   fprintf(f, "%s %u size=%u", what, index, size);
   for (unsigned i = 0; i + 4 <= size; i += 4)
      fprintf(f, " %08x", *(uint32_t *)(ptr + offset + i));
   fprintf(f, "\n");
}

static void
wavesim_dump_draw(struct r600_context *rctx)
{
   static const char *const stages[] = { "vs", "ps" };
   static const enum pipe_shader_type types[] = { PIPE_SHADER_VERTEX, PIPE_SHADER_FRAGMENT };
   if (!getenv("R600_DUMP_DIR"))
      return;
   FILE *f = wavesim_dump_open("draw", NULL, 0);
   if (!f)
      return;
   fprintf(f, "resource_id_base %u\n", R600_MAX_CONST_BUFFERS);
   for (unsigned s = 0; s < 2; s++) {
      struct r600_pipe_shader_selector *sel = s ? rctx->ps_shader : rctx->vs_shader;
      struct r600_pipe_shader *sh = sel ? sel->current : NULL;
      if (!sh)
         continue;
      fprintf(f, "stage %s\n", stages[s]);
      wavesim_dump_words(f, "words", sh->shader.bc.bytecode, sh->shader.bc.ndw);
      wavesim_dump_words(f, "regs", sh->command_buffer.buf, sh->command_buffer.num_dw);
      struct r600_constbuf_state *cbs = &rctx->constbuf_state[types[s]];
      for (unsigned i = 0; i < PIPE_MAX_CONSTANT_BUFFERS; i++) {
         if (!(cbs->enabled_mask & (1u << i)))
            continue;
         struct pipe_constant_buffer *cb = &cbs->cb[i];
         if (cb->user_buffer) {
            fprintf(f, "constbuf %u size=%u", i, cb->buffer_size);
            for (unsigned k = 0; k + 4 <= cb->buffer_size; k += 4)
               fprintf(f, " %08x", *(const uint32_t *)((const uint8_t *)cb->user_buffer + k));
            fprintf(f, "\n");
         } else {
            wavesim_dump_buffer(f, rctx, "constbuf", i, cb->buffer, cb->buffer_offset,
                                cb->buffer_size);
         }
      }
      struct r600_textures_info *tex = &rctx->samplers[types[s]];
      for (unsigned i = 0; i < NUM_TEX_UNITS; i++) {
         struct r600_pipe_sampler_view *v = tex->views.views[i];
         if (v && (tex->views.enabled_mask & (1u << i))) {
            struct pipe_resource *t = v->base.texture;
            fprintf(f, "view %u target=%u format=%s width=%u height=%u depth=%u layers=%u "
                       "levels=%u first_level=%u last_level=%u swizzle=%u%u%u%u",
                    i, t->target, util_format_name(v->base.format), t->width0, t->height0,
                    t->depth0, t->array_size, t->last_level + 1, v->base.u.tex.first_level,
                    v->base.u.tex.last_level, v->base.swizzle_r, v->base.swizzle_g,
                    v->base.swizzle_b, v->base.swizzle_a);
            wavesim_dump_words(f, " words", v->tex_resource_words, 7);
         }
         struct r600_pipe_sampler_state *ss = tex->states.states[i];
         if (ss && (tex->states.enabled_mask & (1u << i))) {
            fprintf(f, "sampler %u border=%08x,%08x,%08x,%08x", i, ss->border_color.ui[0],
                    ss->border_color.ui[1], ss->border_color.ui[2], ss->border_color.ui[3]);
            wavesim_dump_words(f, " words", ss->tex_sampler_words, 3);
         }
      }
   }
   struct r600_vertexbuf_state *vbs = &rctx->vertex_buffer_state;
   for (unsigned i = 0; i < PIPE_MAX_ATTRIBS; i++) {
      if (!(vbs->enabled_mask & (1u << i)))
         continue;
      struct pipe_vertex_buffer *vb = &vbs->vb[i];
      fprintf(f, "vertexbuf_stride %u %u\n", i, vb->stride);
      /* The three vertices the harness draws (or the one element of a stride-0 buffer). */
      wavesim_dump_buffer(f, rctx, "vertexbuf", i, vb->buffer.resource, vb->buffer_offset,
                          vb->stride ? 3 * vb->stride + 64 : 64);
   }
   fclose(f);
}
"""

R600_DRAW_ANCHOR = "static void r600_draw_vbo(struct pipe_context *ctx, const struct pipe_draw_info *info,"
R600_DRAW_CALL_AFTER = """	if (!r600_update_derived_state(rctx)) {
		/* useless to render because current rendering command
		 * can't be achieved
		 */
		return;
	}
"""

# Mesa 22.3's radeon no-op shim gives libdrm no PCI identity, so drmGetDevices2 drops the fake
# render node and EGL never loads r600 (later Mesa's shims, like 22.3's nouveau_noop.c, add these
# sysfs files). The device id is the chip RADEON_GPU_ID names.
RADEON_SHIM_ANCHOR = "   shim_device.version_patchlevel = 0;\n}"
RADEON_SHIM_SYSFS = r"""   shim_device.version_patchlevel = 0;

   /* wavesim: R600_DUMP_DIR */
   static char uevent[256], dev[16];
   snprintf(uevent, sizeof(uevent),
            "DRIVER=radeon\nPCI_CLASS=30000\nPCI_ID=1002:%04X\nPCI_SUBSYS_ID=1002:0000\n"
            "PCI_SLOT_NAME=0000:01:00.0\n", device_id);
   snprintf(dev, sizeof(dev), "0x%04x", device_id);
   drm_shim_override_file(uevent, "/sys/dev/char/%d:%d/device/uevent", DRM_MAJOR,
                          render_node_minor);
   const char *const names[] = { "revision", "vendor", "device", "subsystem_vendor",
                                 "subsystem_device" };
   const char *const values[] = { "0x0\n", "0x1002", dev, "0x1002", "0x0000" };
   /* (drm_shim.c keeps at most 10 overrides) */
   for (unsigned i = 0; i < 5; i++)
      drm_shim_override_file(values[i], "/sys/dev/char/%d:%d/device/%s", DRM_MAJOR,
                             render_node_minor, names[i]);
}

/* A libdrm built with _FORTIFY_SOURCE (Debian's) reads the device's subsystem link through
 * __readlink_chk, which the shim's readlink does not see. */
ssize_t __readlink_chk(const char *path, char *buf, size_t len, size_t buflen);
__attribute__((visibility("default"))) ssize_t
__readlink_chk(const char *path, char *buf, size_t len, size_t buflen)
{
   (void)buflen;
   return readlink(path, buf, len);
}"""


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
    shim = root / "src/amd/drm-shim/radeon_noop_drm_shim.c"
    text = shim.read_text()
    if R600_MARK not in text:
        if RADEON_SHIM_ANCHOR not in text:
            sys.exit(f"{shim}: the place this patch expects is not there (not Mesa 22.3.6?)")
        shim.write_text(text.replace(RADEON_SHIM_ANCHOR, RADEON_SHIM_SYSFS, 1))
    # The draw-time state (r600_state_common.c, r600_draw_vbo).
    st = root / "src/gallium/drivers/r600/r600_state_common.c"
    text = st.read_text()
    if R600_MARK not in text:
        if R600_DRAW_ANCHOR not in text or R600_DRAW_CALL_AFTER not in text:
            sys.exit(f"{st}: the places this patch expects are not there (not Mesa 22.3.6?)")
        text = text.replace(R600_DRAW_ANCHOR, R600_DRAW_DUMP + "\n" + R600_DRAW_ANCHOR, 1)
        text = text.replace(R600_DRAW_CALL_AFTER,
                            R600_DRAW_CALL_AFTER + "\twavesim_dump_draw(rctx);\n", 1)
        st.write_text(text)


if __name__ == "__main__":
    patch_r600(pathlib.Path(sys.argv[1]))
