/* acodump: has Mesa's RADV compile one Vulkan graphics pipeline (a vertex and a pixel shader
 * given as SPIR-V files) so that its ACO back end prints the machine code.
 *
 * Run it under RADV_FORCE_FAMILY=gfx1100 (RADV's null device: no GPU needed) and
 * RADV_DEBUG=shaders (RADV prints each shader's ACO IR and disassembly, with every instruction's
 * encoding, to stderr); corpus/gfx/aco/build.sh does this and extracts the pixel shader.
 *
 * Usage: acodump VS.spv PS.spv [rgba32f|rgba16f|rgba8]   (the colour attachment's format)
 *        acodump --compute CS.spv                         (16 bytes of push constants) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        VkResult r_ = (call);                                                               \
        if (r_ != VK_SUCCESS) {                                                             \
            fprintf(stderr, "acodump: %s failed: %d\n", #call, (int)r_);                    \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

static uint32_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *words = malloc(*size);
    if (!words || fread(words, 1, *size, f) != *size) {
        fprintf(stderr, "acodump: cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    return words;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: acodump VS.spv PS.spv [rgba32f|rgba16f|rgba8] | --compute CS.spv\n");
        return 2;
    }
    VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT;
    if (argc > 3 && !strcmp(argv[3], "rgba16f"))
        format = VK_FORMAT_R16G16B16A16_SFLOAT;
    else if (argc > 3 && !strcmp(argv[3], "rgba8"))
        format = VK_FORMAT_R8G8B8A8_UNORM;

    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "acodump", 1, "acodump", 1,
                             VK_API_VERSION_1_3};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app};
    VkInstance instance;
    CHECK(vkCreateInstance(&ici, NULL, &instance));
    uint32_t count = 1;
    VkPhysicalDevice phys;
    vkEnumeratePhysicalDevices(instance, &count, &phys);
    if (count == 0) {
        fprintf(stderr, "acodump: no Vulkan device (is RADV_FORCE_FAMILY=gfx1100 set?)\n");
        return 1;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(phys, &props);
    fprintf(stderr, "acodump: device %s\n", props.deviceName);

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1,
                                     &priority};
    VkPhysicalDeviceVulkan11Features f11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    f11.storageInputOutput16 = VK_TRUE; /* 16-bit shader inputs and outputs */
    VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            &f11};
    f12.shaderFloat16 = VK_TRUE;
    f12.bufferDeviceAddress = VK_TRUE; /* GL_EXT_buffer_reference in compute shaders */
    VkPhysicalDeviceVulkan13Features f13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                            &f12};
    f13.dynamicRendering = VK_TRUE;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f13, 0, 1, &queue};
    VkDevice device;
    CHECK(vkCreateDevice(phys, &dci, NULL, &device));

    if (!strcmp(argv[1], "--compute")) {
        size_t size;
        uint32_t *code = read_file(argv[2], &size);
        VkShaderModuleCreateInfo mci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, size,
                                        code};
        VkShaderModule module;
        CHECK(vkCreateShaderModule(device, &mci, NULL, &module));
        VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
        VkPipelineLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 0,
                                          NULL, 1, &range};
        VkPipelineLayout layout;
        CHECK(vkCreatePipelineLayout(device, &lci, NULL, &layout));
        VkComputePipelineCreateInfo cci = {
            VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, NULL, 0,
            {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
             VK_SHADER_STAGE_COMPUTE_BIT, module, "main", NULL},
            layout, VK_NULL_HANDLE, 0};
        VkPipeline pipeline;
        CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cci, NULL, &pipeline));
        fprintf(stderr, "acodump: pipeline created\n");
        return 0;
    }

    VkShaderModule modules[2];
    for (int i = 0; i < 2; i++) {
        size_t size;
        uint32_t *code = read_file(argv[1 + i], &size);
        VkShaderModuleCreateInfo mci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, size,
                                        code};
        CHECK(vkCreateShaderModule(device, &mci, NULL, &modules[i]));
    }
    VkPipelineShaderStageCreateInfo stages[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, VK_SHADER_STAGE_VERTEX_BIT,
         modules[0], "main"},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
         VK_SHADER_STAGE_FRAGMENT_BIT, modules[1], "main"},
    };
    /* Vertex buffer: position and colour, two float4 per vertex. */
    VkVertexInputBindingDescription binding = {0, 32, VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attrs[2] = {
        {0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
        {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16},
    };
    VkPipelineVertexInputStateCreateInfo vertex_input = {
        VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, NULL, 0, 1, &binding, 2, attrs};
    VkPipelineInputAssemblyStateCreateInfo assembly = {
        VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, NULL, 0,
        VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkViewport viewport = {0, 0, 64, 64, 0, 1};
    VkRect2D scissor = {{0, 0}, {64, 64}};
    VkPipelineViewportStateCreateInfo vp = {VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                            NULL, 0, 1, &viewport, 1, &scissor};
    VkPipelineRasterizationStateCreateInfo raster = {
        VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo msaa = {
        VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    msaa.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend_att = {0};
    blend_att.colorWriteMask = 0xf;
    VkPipelineColorBlendStateCreateInfo blend = {
        VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO, NULL, 0, VK_FALSE, 0, 1,
        &blend_att};
    VkPipelineLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(device, &lci, NULL, &layout));
    VkPipelineRenderingCreateInfo rendering = {VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                               NULL, 0, 1, &format};
    VkGraphicsPipelineCreateInfo gci = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                        &rendering, 0, 2, stages, &vertex_input, &assembly, NULL,
                                        &vp, &raster, &msaa, NULL, &blend, NULL, layout};
    VkPipeline pipeline;
    CHECK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &gci, NULL, &pipeline));
    fprintf(stderr, "acodump: pipeline created\n");
    return 0;
}
