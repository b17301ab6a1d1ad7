/* What both shader_test harnesses share (tools/mesa/shader_test.c for r600 and
 * tools/agx/mesa_shader_test.c for asahi): includes, failure reporting and the GL entry points
 * both take through eglGetProcAddress. Each harness adds its own entry points to GL_FUNCS. */
#ifndef WAVESIM_SHADER_TEST_COMMON_H
#define WAVESIM_SHADER_TEST_COMMON_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES 0
#include <GL/glcorearb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *file;

static int fail(const char *why, const char *detail)
{
   fprintf(stderr, "shader_test: %s: FAILED %s%s%s\n", file, why, detail ? ": " : "",
           detail ? detail : "");
   return 1;
}

/* GL entry points, taken through eglGetProcAddress (Mesa answers for core functions too). */
#define COMMON_GL_FUNCS(X)                                                                  \
   X(PFNGLCREATESHADERPROC, glCreateShader)                                                 \
   X(PFNGLSHADERSOURCEPROC, glShaderSource)                                                 \
   X(PFNGLCOMPILESHADERPROC, glCompileShader)                                               \
   X(PFNGLGETSHADERIVPROC, glGetShaderiv)                                                   \
   X(PFNGLGETSHADERINFOLOGPROC, glGetShaderInfoLog)                                         \
   X(PFNGLCREATEPROGRAMPROC, glCreateProgram)                                               \
   X(PFNGLATTACHSHADERPROC, glAttachShader)                                                 \
   X(PFNGLLINKPROGRAMPROC, glLinkProgram)                                                   \
   X(PFNGLGETPROGRAMIVPROC, glGetProgramiv)                                                 \
   X(PFNGLGETPROGRAMINFOLOGPROC, glGetProgramInfoLog)                                       \
   X(PFNGLUSEPROGRAMPROC, glUseProgram)                                                     \
   X(PFNGLGENFRAMEBUFFERSPROC, glGenFramebuffers)                                           \
   X(PFNGLBINDFRAMEBUFFERPROC, glBindFramebuffer)                                           \
   X(PFNGLGENRENDERBUFFERSPROC, glGenRenderbuffers)                                         \
   X(PFNGLBINDRENDERBUFFERPROC, glBindRenderbuffer)                                         \
   X(PFNGLRENDERBUFFERSTORAGEPROC, glRenderbufferStorage)                                   \
   X(PFNGLFRAMEBUFFERRENDERBUFFERPROC, glFramebufferRenderbuffer)                           \
   X(PFNGLDRAWBUFFERSPROC, glDrawBuffers)                                                   \
   X(PFNGLGENVERTEXARRAYSPROC, glGenVertexArrays)                                           \
   X(PFNGLBINDVERTEXARRAYPROC, glBindVertexArray)                                           \
   X(PFNGLGENBUFFERSPROC, glGenBuffers)                                                     \
   X(PFNGLBINDBUFFERPROC, glBindBuffer)                                                     \
   X(PFNGLBUFFERDATAPROC, glBufferData)                                                     \
   X(PFNGLGETACTIVEATTRIBPROC, glGetActiveAttrib)                                           \
   X(PFNGLGETATTRIBLOCATIONPROC, glGetAttribLocation)                                       \
   X(PFNGLENABLEVERTEXATTRIBARRAYPROC, glEnableVertexAttribArray)                           \
   X(PFNGLVERTEXATTRIBPOINTERPROC, glVertexAttribPointer)                                   \
   X(PFNGLVIEWPORTPROC, glViewport)                                                         \
   X(PFNGLDRAWARRAYSPROC, glDrawArrays)                                                     \
   X(PFNGLFINISHPROC, glFinish)                                                             \
   X(PFNGLGETACTIVEUNIFORMPROC, glGetActiveUniform)                                         \
   X(PFNGLGETUNIFORMLOCATIONPROC, glGetUniformLocation)                                     \
   X(PFNGLUNIFORM4FVPROC, glUniform4fv)                                                     \
   X(PFNGLUNIFORM1FVPROC, glUniform1fv)                                                     \
   X(PFNGLUNIFORM2FVPROC, glUniform2fv)                                                     \
   X(PFNGLUNIFORM3FVPROC, glUniform3fv)                                                     \
   X(PFNGLUNIFORM1IVPROC, glUniform1iv)                                                     \
   X(PFNGLUNIFORM2IVPROC, glUniform2iv)                                                     \
   X(PFNGLUNIFORM3IVPROC, glUniform3iv)                                                     \
   X(PFNGLUNIFORM4IVPROC, glUniform4iv)                                                     \
   X(PFNGLUNIFORM1UIVPROC, glUniform1uiv)                                                   \
   X(PFNGLUNIFORM2UIVPROC, glUniform2uiv)                                                   \
   X(PFNGLUNIFORM3UIVPROC, glUniform3uiv)                                                   \
   X(PFNGLUNIFORM4UIVPROC, glUniform4uiv)                                                   \
   X(PFNGLUNIFORMMATRIX2FVPROC, glUniformMatrix2fv)                                         \
   X(PFNGLUNIFORMMATRIX3FVPROC, glUniformMatrix3fv)                                         \
   X(PFNGLUNIFORMMATRIX4FVPROC, glUniformMatrix4fv)                                         \
   X(PFNGLUNIFORM1IPROC, glUniform1i)                                                       \
   X(PFNGLGENTEXTURESPROC, glGenTextures)                                                   \
   X(PFNGLBINDTEXTUREPROC, glBindTexture)                                                   \
   X(PFNGLACTIVETEXTUREPROC, glActiveTexture)                                               \
   X(PFNGLTEXIMAGE1DPROC, glTexImage1D)                                                     \
   X(PFNGLTEXIMAGE2DPROC, glTexImage2D)                                                     \
   X(PFNGLTEXIMAGE3DPROC, glTexImage3D)                                                     \
   X(PFNGLTEXPARAMETERIPROC, glTexParameteri)                                               \
   X(PFNGLGETERRORPROC, glGetError)

#endif
