; Position Z and W, front face and the ancillary word: every term after the barycentrics.
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %lin_center, <2 x float> %lin_centroid, float %stipple, float %x, float %y, float %z, float %w, i32 %face, i32 %anc, i32 %cov, i32 %fixed) {
  %front = icmp ne i32 %face, 0
  %sel = select i1 %front, float 1.0, float -1.0
  %zw = fmul float %z, %w
  %a = uitofp i32 %anc to float
  %c = uitofp i32 %cov to float
  %f = uitofp i32 %fixed to float
  %cf = fadd float %c, %f
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %zw, float %sel, float %a, float %cf, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
