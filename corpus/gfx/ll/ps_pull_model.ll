; The pull-model term (1/W, I/W, J/W) and the centroid pair.
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull) {
  %a = extractelement <3 x float> %pull, i32 0
  %b = extractelement <3 x float> %pull, i32 1
  %c = extractelement <3 x float> %pull, i32 2
  %d = extractelement <2 x float> %persp_centroid, i32 1
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %a, float %b, float %c, float %d, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
