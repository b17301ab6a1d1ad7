; Perspective-correct interpolation of attribute 0.xyzw with the persp-center I, J.
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %ij) {
  %i = extractelement <2 x float> %ij, i32 0
  %j = extractelement <2 x float> %ij, i32 1
  %p0 = call float @llvm.amdgcn.lds.param.load(i32 0, i32 0, i32 %prim_mask)
  %p1 = call float @llvm.amdgcn.lds.param.load(i32 1, i32 0, i32 %prim_mask)
  %p2 = call float @llvm.amdgcn.lds.param.load(i32 2, i32 0, i32 %prim_mask)
  %p3 = call float @llvm.amdgcn.lds.param.load(i32 3, i32 0, i32 %prim_mask)
  %a0 = call float @llvm.amdgcn.interp.inreg.p10(float %p0, float %i, float %p0)
  %r0 = call float @llvm.amdgcn.interp.inreg.p2(float %p0, float %j, float %a0)
  %a1 = call float @llvm.amdgcn.interp.inreg.p10(float %p1, float %i, float %p1)
  %r1 = call float @llvm.amdgcn.interp.inreg.p2(float %p1, float %j, float %a1)
  %a2 = call float @llvm.amdgcn.interp.inreg.p10(float %p2, float %i, float %p2)
  %r2 = call float @llvm.amdgcn.interp.inreg.p2(float %p2, float %j, float %a2)
  %a3 = call float @llvm.amdgcn.interp.inreg.p10(float %p3, float %i, float %p3)
  %r3 = call float @llvm.amdgcn.interp.inreg.p2(float %p3, float %j, float %a3)
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %r0, float %r1, float %r2, float %r3, i1 true, i1 true)
  ret void
}
declare float @llvm.amdgcn.lds.param.load(i32, i32, i32)
declare float @llvm.amdgcn.interp.inreg.p10(float, float, float)
declare float @llvm.amdgcn.interp.inreg.p2(float, float, float)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
