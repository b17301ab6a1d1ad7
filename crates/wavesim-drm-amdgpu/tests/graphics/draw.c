/* A small Vulkan program that draws one triangle into a 64x64 R8G8B8A8_UNORM image and writes
 * the image's bytes to a file. It is how tests/graphics/capture.sh makes RADV compile and
 * submit graphics pipelines through the DRM shim (which captures them and refuses the draw),
 * and how lavapipe renders the same pipeline.
 *
 *   draw tri  VERT.spv FRAG.spv OUT.rgba   vertices from gl_VertexIndex, no resources
 *   draw vbuf VERT.spv FRAG.spv OUT.rgba   a vertex buffer (vec2 position, vec4 colour),
 *                                          push constants (vec2 scale, float depth) and a
 *                                          uniform buffer (vec4 tint, uint mode) at set 0
 *   draw tex  VERT.spv FRAG.spv OUT.rgba   vertices as tri, a combined image sampler at set 0
 *                                          (16x16 RGBA8 cleared to (0.25, 0.5, 0.75, 1) by
 *                                          vkCmdClearColorImage, linear filtering)
 *
 * Exit status 0 when the image was written, 2 when the device was lost (the shim refused the
 * draw), 1 on any other failure; the failing call is printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define W 64
#define H 64

static int lost;

#define CHECK(call)                                                                            \
    do {                                                                                       \
        VkResult r_ = (call);                                                                  \
        if (r_ != VK_SUCCESS) {                                                                \
            fprintf(stderr, "draw: %s failed: %d\n", #call, r_);                             \
            if (r_ == VK_ERROR_DEVICE_LOST)                                                    \
                lost = 1;                                                                      \
            return lost ? 2 : 1;                                                               \
        }                                                                                      \
    } while (0)

static uint32_t *read_spv(const char *path, size_t *bytes)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *code = malloc(n);
    if (!code || fread(code, 1, n, f) != (size_t)n) {
        fclose(f);
        free(code);
        return NULL;
    }
    fclose(f);
    *bytes = n;
    return code;
}

static VkPhysicalDeviceMemoryProperties mem_props;

static int memory_type(uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t t = 0; t < mem_props.memoryTypeCount; t++)
        if ((bits >> t & 1) && (mem_props.memoryTypes[t].propertyFlags & want) == want)
            return (int)t;
    return -1;
}

/* A buffer in host-visible coherent memory, mapped. */
static int make_buffer(VkDevice dev, VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer *buf,
                       VkDeviceMemory *mem, void **map)
{
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                              .size = size,
                              .usage = usage,
                              .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    CHECK(vkCreateBuffer(dev, &bci, NULL, buf));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, *buf, &req);
    int ty = memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                 VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    if (ty < 0)
        return 1;
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = req.size,
                                .memoryTypeIndex = (uint32_t)ty};
    CHECK(vkAllocateMemory(dev, &mai, NULL, mem));
    CHECK(vkBindBufferMemory(dev, *buf, *mem, 0));
    CHECK(vkMapMemory(dev, *mem, 0, VK_WHOLE_SIZE, 0, map));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[1], "tri") && strcmp(argv[1], "vbuf") && strcmp(argv[1], "tex"))) {
        fprintf(stderr, "usage: draw tri|vbuf|tex VERT.spv FRAG.spv OUT.rgba\n");
        return 1;
    }
    int vbuf = !strcmp(argv[1], "vbuf");
    int tex = !strcmp(argv[1], "tex");

    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .apiVersion = VK_API_VERSION_1_2};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pApplicationInfo = &app};
    VkInstance inst;
    CHECK(vkCreateInstance(&ici, NULL, &inst));
    uint32_t n = 1;
    VkPhysicalDevice pd;
    VkResult er = vkEnumeratePhysicalDevices(inst, &n, &pd);
    if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || n == 0) {
        fprintf(stderr, "draw: no Vulkan device\n");
        return 1;
    }
    vkGetPhysicalDeviceMemoryProperties(pd, &mem_props);
    uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, NULL);
    VkQueueFamilyProperties fams[16];
    nf = nf > 16 ? 16 : nf;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, fams);
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < nf && family == UINT32_MAX; i++)
        if (fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)
            family = i;
    if (family == UINT32_MAX) {
        fprintf(stderr, "draw: no graphics queue\n");
        return 1;
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = family,
                                   .queueCount = 1,
                                   .pQueuePriorities = &prio};
    /* flat.vert writes gl_ClipDistance. */
    VkPhysicalDeviceFeatures features = {.shaderClipDistance = VK_TRUE};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qci,
                              .pEnabledFeatures = &features};
    VkDevice dev;
    CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
    VkQueue queue;
    vkGetDeviceQueue(dev, family, 0, &queue);

    /* The colour target (optimal tiling, device-local) and a buffer to read it back. */
    VkImageCreateInfo imci = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                              .imageType = VK_IMAGE_TYPE_2D,
                              .format = VK_FORMAT_R8G8B8A8_UNORM,
                              .extent = {W, H, 1},
                              .mipLevels = 1,
                              .arrayLayers = 1,
                              .samples = VK_SAMPLE_COUNT_1_BIT,
                              .tiling = VK_IMAGE_TILING_OPTIMAL,
                              .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                       VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                              .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    VkImage image;
    CHECK(vkCreateImage(dev, &imci, NULL, &image));
    VkMemoryRequirements ireq;
    vkGetImageMemoryRequirements(dev, image, &ireq);
    int ity = memory_type(ireq.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (ity < 0)
        ity = memory_type(ireq.memoryTypeBits, 0);
    VkMemoryAllocateInfo imai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                 .allocationSize = ireq.size,
                                 .memoryTypeIndex = (uint32_t)ity};
    VkDeviceMemory imem;
    CHECK(vkAllocateMemory(dev, &imai, NULL, &imem));
    CHECK(vkBindImageMemory(dev, image, imem, 0));
    VkImageViewCreateInfo ivci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                  .image = image,
                                  .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                  .format = VK_FORMAT_R8G8B8A8_UNORM,
                                  .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    VkImageView view;
    CHECK(vkCreateImageView(dev, &ivci, NULL, &view));
    VkBuffer rb;
    VkDeviceMemory rbm;
    void *rbmap;
    if (make_buffer(dev, W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &rb, &rbm, &rbmap))
        return 1;

    VkAttachmentDescription att = {.format = VK_FORMAT_R8G8B8A8_UNORM,
                                   .samples = VK_SAMPLE_COUNT_1_BIT,
                                   .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                   .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                   .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                   .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                   .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                   .finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
    VkAttachmentReference cref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                .colorAttachmentCount = 1,
                                .pColorAttachments = &cref};
    VkRenderPassCreateInfo rpci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                   .attachmentCount = 1,
                                   .pAttachments = &att,
                                   .subpassCount = 1,
                                   .pSubpasses = &sub};
    VkRenderPass rp;
    CHECK(vkCreateRenderPass(dev, &rpci, NULL, &rp));
    VkFramebufferCreateInfo fbci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                    .renderPass = rp,
                                    .attachmentCount = 1,
                                    .pAttachments = &view,
                                    .width = W,
                                    .height = H,
                                    .layers = 1};
    VkFramebuffer fb;
    CHECK(vkCreateFramebuffer(dev, &fbci, NULL, &fb));

    /* Resources of the vbuf pipeline. */
    VkDescriptorSetLayoutBinding ub = {0, tex ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
                                              : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                       1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo dslci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 1,
        .pBindings = &ub};
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));
    VkPushConstantRange pcr = {VK_SHADER_STAGE_VERTEX_BIT, 0, 12};
    VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                       .setLayoutCount = vbuf || tex ? 1 : 0,
                                       .pSetLayouts = &dsl,
                                       .pushConstantRangeCount = vbuf ? 1 : 0,
                                       .pPushConstantRanges = &pcr};
    VkPipelineLayout pl;
    CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &pl));

    VkShaderModule mods[2];
    for (int s = 0; s < 2; s++) {
        size_t bytes;
        uint32_t *code = read_spv(argv[2 + s], &bytes);
        if (!code) {
            fprintf(stderr, "draw: cannot read %s\n", argv[2 + s]);
            return 1;
        }
        VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                         .codeSize = bytes,
                                         .pCode = code};
        CHECK(vkCreateShaderModule(dev, &smci, NULL, &mods[s]));
        free(code);
    }
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = mods[0],
         .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = mods[1],
         .pName = "main"}};
    /* vbuf: binding 0, stride 24: position R32G32_SFLOAT at 0, colour R8G8B8A8_UNORM at 8. */
    VkVertexInputBindingDescription vib = {0, 24, VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription via[2] = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0},
                                                {1, 0, VK_FORMAT_R8G8B8A8_UNORM, 8}};
    VkPipelineVertexInputStateCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = vbuf ? 1 : 0,
        .pVertexBindingDescriptions = &vib,
        .vertexAttributeDescriptionCount = vbuf ? 2 : 0,
        .pVertexAttributeDescriptions = via};
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkViewport vp = {0, 0, W, H, 0, 1};
    VkRect2D sc = {{0, 0}, {W, H}};
    VkPipelineViewportStateCreateInfo vps = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .pViewports = &vp,
        .scissorCount = 1,
        .pScissors = &sc};
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f};
    VkPipelineMultisampleStateCreateInfo ms = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineColorBlendAttachmentState cba = {.colorWriteMask = 0xf};
    VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = 1,
        .pAttachments = &cba};
    VkGraphicsPipelineCreateInfo gpci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                         .stageCount = 2,
                                         .pStages = stages,
                                         .pVertexInputState = &vi,
                                         .pInputAssemblyState = &ia,
                                         .pViewportState = &vps,
                                         .pRasterizationState = &rs,
                                         .pMultisampleState = &ms,
                                         .pColorBlendState = &cb,
                                         .layout = pl,
                                         .renderPass = rp};
    VkPipeline pipe;
    CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, NULL, &pipe));

    VkBuffer vb = VK_NULL_HANDLE, ubuf = VK_NULL_HANDLE;
    VkDeviceMemory vbm, ubm;
    void *vbmap, *ubmap;
    VkDescriptorPool pool;
    VkDescriptorSet set = VK_NULL_HANDLE;
    if (vbuf || tex) {
        VkDescriptorPoolSize ps = {ub.descriptorType, 1};
        VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                           .maxSets = 1,
                                           .poolSizeCount = 1,
                                           .pPoolSizes = &ps};
        CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &pool));
        VkDescriptorSetAllocateInfo dsai = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
            .descriptorPool = pool,
            .descriptorSetCount = 1,
            .pSetLayouts = &dsl};
        CHECK(vkAllocateDescriptorSets(dev, &dsai, &set));
    }
    if (vbuf) {
        if (make_buffer(dev, 3 * 24, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vb, &vbm, &vbmap) ||
            make_buffer(dev, 32, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, &ubuf, &ubm, &ubmap))
            return 1;
        const float pos[3][2] = {{-1.0f, 1.0f}, {1.0f, 1.0f}, {0.0f, -1.0f}};
        const uint32_t col[3] = {0xff0000ffu, 0xff00ff00u, 0xffff0000u};
        for (int v = 0; v < 3; v++) {
            memcpy((char *)vbmap + 24 * v, pos[v], 8);
            memcpy((char *)vbmap + 24 * v + 8, &col[v], 4);
            memset((char *)vbmap + 24 * v + 12, 0, 12);
        }
        const float tint[4] = {1.0f, 0.5f, 0.25f, 1.0f};
        const uint32_t mode = 1;
        memcpy(ubmap, tint, 16);
        memcpy((char *)ubmap + 16, &mode, 4);
        VkDescriptorBufferInfo dbi = {ubuf, 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet wds = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                    .dstSet = set,
                                    .descriptorCount = 1,
                                    .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                    .pBufferInfo = &dbi};
        vkUpdateDescriptorSets(dev, 1, &wds, 0, NULL);
    }

    /* tex: the sampled image, its view, a sampler and the descriptor set. */
    VkImage timg = VK_NULL_HANDLE;
    if (tex) {
        VkImageCreateInfo tci = imci;
        tci.extent = (VkExtent3D){16, 16, 1};
        tci.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        CHECK(vkCreateImage(dev, &tci, NULL, &timg));
        VkMemoryRequirements treq;
        vkGetImageMemoryRequirements(dev, timg, &treq);
        VkMemoryAllocateInfo tmai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                     .allocationSize = treq.size,
                                     .memoryTypeIndex = (uint32_t)memory_type(treq.memoryTypeBits, 0)};
        VkDeviceMemory tmem;
        CHECK(vkAllocateMemory(dev, &tmai, NULL, &tmem));
        CHECK(vkBindImageMemory(dev, timg, tmem, 0));
        VkImageViewCreateInfo tvci = ivci;
        tvci.image = timg;
        VkImageView tview;
        CHECK(vkCreateImageView(dev, &tvci, NULL, &tview));
        VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                   .magFilter = VK_FILTER_LINEAR,
                                   .minFilter = VK_FILTER_LINEAR,
                                   .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                   .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                   .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                   .maxLod = 0.0f};
        VkSampler sampler;
        CHECK(vkCreateSampler(dev, &sci, NULL, &sampler));
        VkDescriptorImageInfo dii = {sampler, tview, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        VkWriteDescriptorSet wds = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                    .dstSet = set,
                                    .descriptorCount = 1,
                                    .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                    .pImageInfo = &dii};
        vkUpdateDescriptorSets(dev, 1, &wds, 0, NULL);
    }

    VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .queueFamilyIndex = family};
    VkCommandPool cp;
    CHECK(vkCreateCommandPool(dev, &cpci, NULL, &cp));
    VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                        .commandPool = cp,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                        .commandBufferCount = 1};
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(dev, &cbai, &cmd));
    VkCommandBufferBeginInfo cbbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                     .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    CHECK(vkBeginCommandBuffer(cmd, &cbbi));
    if (tex) {
        VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageMemoryBarrier to_dst = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                       .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                       .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                       .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                       .image = timg,
                                       .subresourceRange = range};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             0, 0, NULL, 0, NULL, 1, &to_dst);
        VkClearColorValue texel = {.float32 = {0.25f, 0.5f, 0.75f, 1.0f}};
        vkCmdClearColorImage(cmd, timg, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &texel, 1, &range);
        VkImageMemoryBarrier to_read = to_dst;
        to_read.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        to_read.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        to_read.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        to_read.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, NULL, 0, NULL, 1,
                             &to_read);
    }
    VkClearValue clear = {.color = {.float32 = {0.0f, 0.0f, 0.0f, 1.0f}}};
    VkRenderPassBeginInfo rpbi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                  .renderPass = rp,
                                  .framebuffer = fb,
                                  .renderArea = {{0, 0}, {W, H}},
                                  .clearValueCount = 1,
                                  .pClearValues = &clear};
    vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
    if (tex)
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pl, 0, 1, &set, 0, NULL);
    if (vbuf) {
        VkDeviceSize off = 0;
        vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &off);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pl, 0, 1, &set, 0, NULL);
        const float push[3] = {0.75f, 0.75f, 0.5f};
        vkCmdPushConstants(cmd, pl, VK_SHADER_STAGE_VERTEX_BIT, 0, 12, push);
    }
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRenderPass(cmd);
    VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                .imageExtent = {W, H, 1}};
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb, 1, &region);
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &mb, 0, NULL, 0, NULL);
    CHECK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    CHECK(vkCreateFence(dev, &fci, NULL, &fence));
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &cmd};
    CHECK(vkQueueSubmit(queue, 1, &si, fence));
    CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));

    FILE *out = fopen(argv[4], "wb");
    if (!out || fwrite(rbmap, 1, W * H * 4, out) != W * H * 4) {
        fprintf(stderr, "draw: cannot write %s\n", argv[4]);
        return 1;
    }
    fclose(out);
    /* The process exits here; the driver releases every object with the device. */
    vkDeviceWaitIdle(dev);
    return 0;
}
