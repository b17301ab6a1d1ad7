; The persp-center and linear-center barycentrics exported raw (I, J of both).
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %lin_center) {
  %pi = extractelement <2 x float> %persp_center, i32 0
  %pj = extractelement <2 x float> %persp_center, i32 1
  %li = extractelement <2 x float> %lin_center, i32 0
  %lj = extractelement <2 x float> %lin_center, i32 1
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %pi, float %pj, float %li, float %lj, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
