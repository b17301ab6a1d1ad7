; f16 interpolation of both halves of a packed attribute, with the nearest-even (interp.inreg.*.f16)
; and the round-toward-zero (interp.p10.rtz.f16 / interp.p2.rtz.f16) forms: persp-center I, J;
; attr0.x holds (a, b) and attr0.y holds (c, d) as f16 pairs.
; MRT0 = (a, b, c, d) interpolated, widened to f32; MRT1 = the four results as two packed pairs.
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %ij) {
  %i = extractelement <2 x float> %ij, i32 0
  %j = extractelement <2 x float> %ij, i32 1
  %px = call float @llvm.amdgcn.lds.param.load(i32 0, i32 0, i32 %prim_mask)
  %py = call float @llvm.amdgcn.lds.param.load(i32 1, i32 0, i32 %prim_mask)
  %a10 = call float @llvm.amdgcn.interp.inreg.p10.f16(float %px, float %i, float %px, i1 false)
  %a = call half @llvm.amdgcn.interp.inreg.p2.f16(float %px, float %j, float %a10, i1 false)
  %b10 = call float @llvm.amdgcn.interp.inreg.p10.f16(float %px, float %i, float %px, i1 true)
  %b = call half @llvm.amdgcn.interp.inreg.p2.f16(float %px, float %j, float %b10, i1 true)
  %c10 = call float @llvm.amdgcn.interp.p10.rtz.f16(float %py, float %i, float %py, i1 false)
  %c = call half @llvm.amdgcn.interp.p2.rtz.f16(float %py, float %j, float %c10, i1 false)
  %d10 = call float @llvm.amdgcn.interp.p10.rtz.f16(float %py, float %i, float %py, i1 true)
  %d = call half @llvm.amdgcn.interp.p2.rtz.f16(float %py, float %j, float %d10, i1 true)
  %af = fpext half %a to float
  %bf = fpext half %b to float
  %cf = fpext half %c to float
  %df = fpext half %d to float
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %af, float %bf, float %cf, float %df, i1 false, i1 false)
  %ab0 = insertelement <2 x half> undef, half %a, i32 0
  %ab = insertelement <2 x half> %ab0, half %b, i32 1
  %cd0 = insertelement <2 x half> undef, half %c, i32 0
  %cd = insertelement <2 x half> %cd0, half %d, i32 1
  %abf = bitcast <2 x half> %ab to float
  %cdf = bitcast <2 x half> %cd to float
  call void @llvm.amdgcn.exp.f32(i32 1, i32 3, float %abf, float %cdf, float undef, float undef, i1 true, i1 true)
  ret void
}
declare float @llvm.amdgcn.lds.param.load(i32, i32, i32)
declare float @llvm.amdgcn.interp.inreg.p10.f16(float, float, float, i1)
declare half @llvm.amdgcn.interp.inreg.p2.f16(float, float, float, i1)
declare float @llvm.amdgcn.interp.p10.rtz.f16(float, float, float, i1)
declare half @llvm.amdgcn.interp.p2.rtz.f16(float, float, float, i1)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
