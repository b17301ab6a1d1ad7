; ADDR != ENA: "InitialPSInputAddr" keeps every term's VGPRs reserved while only position X and
; the linear sample pair are enabled (radeonsi's way of keeping VGPR numbers stable).
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %lin_center, <2 x float> %lin_centroid, float %stipple, float %x, float %y) #0 {
  %li = extractelement <2 x float> %lin_sample, i32 0
  %s = fadd float %x, %li
  call void @llvm.amdgcn.exp.f32(i32 0, i32 1, float %s, float undef, float undef, float undef, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
attributes #0 = { "InitialPSInputAddr"="0xffff" }
