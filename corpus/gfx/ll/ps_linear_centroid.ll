; The linear-centroid barycentrics alone (SPI_PS_INPUT bit 6), exported raw with their sum.
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %lin_center, <2 x float> %lin_centroid) {
  %i = extractelement <2 x float> %lin_centroid, i32 0
  %j = extractelement <2 x float> %lin_centroid, i32 1
  %s = fadd float %i, %j
  call void @llvm.amdgcn.exp.f32(i32 0, i32 7, float %i, float %j, float %s, float undef, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
