; Linear-center interpolation of a 16-bit attribute pair (interp.inreg.p10.f16 / p2.f16, high half).
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %ij) {
  %i = extractelement <2 x float> %ij, i32 0
  %j = extractelement <2 x float> %ij, i32 1
  %p = call float @llvm.amdgcn.lds.param.load(i32 0, i32 1, i32 %prim_mask)
  %a = call float @llvm.amdgcn.interp.inreg.p10.f16(float %p, float %i, float %p, i1 true)
  %r = call half @llvm.amdgcn.interp.inreg.p2.f16(float %p, float %j, float %a, i1 true)
  %rf = fpext half %r to float
  call void @llvm.amdgcn.exp.f32(i32 0, i32 1, float %rf, float undef, float undef, float undef, i1 true, i1 true)
  ret void
}
declare float @llvm.amdgcn.lds.param.load(i32, i32, i32)
declare float @llvm.amdgcn.interp.inreg.p10.f16(float, float, float, i1)
declare half @llvm.amdgcn.interp.inreg.p2.f16(float, float, float, i1)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
