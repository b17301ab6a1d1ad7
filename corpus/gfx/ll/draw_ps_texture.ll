; The draw's textured pixel shader: (u, v) = attribute 0.xy interpolated with the persp-center
; I, J (P0 + I * P10 + J * P20 through lds_param_load and DPP, in whole-quad mode), then
; image_sample_lz with the T# in s[0:7] and the S# in s[8:11] (the draw passes a texture's
; descriptors as the PS's user SGPRs); the texel goes to MRT0.
define amdgpu_ps void @main(<8 x i32> inreg %t, <4 x i32> inreg %s, i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %ij) {
  %i = extractelement <2 x float> %ij, i32 0
  %j = extractelement <2 x float> %ij, i32 1
  %pu = call float @llvm.amdgcn.lds.param.load(i32 0, i32 0, i32 %prim_mask)
  %pv = call float @llvm.amdgcn.lds.param.load(i32 1, i32 0, i32 %prim_mask)
  %u = call float @chan(float %pu, float %i, float %j)
  %v = call float @chan(float %pv, float %i, float %j)
  %c = call <4 x float> @llvm.amdgcn.image.sample.lz.2d.v4f32.f32(i32 15, float %u, float %v, <8 x i32> %t, <4 x i32> %s, i1 false, i32 0, i32 0)
  %r = extractelement <4 x float> %c, i32 0
  %g = extractelement <4 x float> %c, i32 1
  %b = extractelement <4 x float> %c, i32 2
  %a = extractelement <4 x float> %c, i32 3
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %r, float %g, float %b, float %a, i1 true, i1 true)
  ret void
}
define internal float @chan(float %p, float %i, float %j) alwaysinline {
  %pi = bitcast float %p to i32
  %q0 = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %pi, i32 0, i32 15, i32 15, i1 true)
  %q1 = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %pi, i32 85, i32 15, i32 15, i1 true)
  %q2 = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %pi, i32 170, i32 15, i32 15, i1 true)
  %w0 = call i32 @llvm.amdgcn.wqm.i32(i32 %q0)
  %w1 = call i32 @llvm.amdgcn.wqm.i32(i32 %q1)
  %w2 = call i32 @llvm.amdgcn.wqm.i32(i32 %q2)
  %p0 = bitcast i32 %w0 to float
  %p10 = bitcast i32 %w1 to float
  %p20 = bitcast i32 %w2 to float
  %t = call float @llvm.fma.f32(float %i, float %p10, float %p0)
  %r = call float @llvm.fma.f32(float %j, float %p20, float %t)
  ret float %r
}
declare float @llvm.amdgcn.lds.param.load(i32, i32, i32)
declare i32 @llvm.amdgcn.mov.dpp.i32(i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.wqm.i32(i32)
declare float @llvm.fma.f32(float, float, float)
declare <4 x float> @llvm.amdgcn.image.sample.lz.2d.v4f32.f32(i32, float, float, <8 x i32>, <4 x i32>, i1, i32, i32)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
