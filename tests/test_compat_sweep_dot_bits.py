"""dot, batch_dot, linalg.gemm2, np.dot/np.matmul and FullyConnected give 1.9.1's float32 and
float64 bits where NumPy's BLAS calls order the sums differently (mxnet/operator/_gemm_order.py):
vector-shaped products (one side of size 1) stay on GEMM as in 1.9.1, and small float32
FullyConnected layers follow oneDNN's fused multiply-add order (one chain over k for batches of
16 rows or more, 16 lanes folded by halving for 2-15 rows, the bias added last).

The expected values were recorded from MXNet 1.9.1 (CPU build) as hex of the IEEE bits.
"""
import numpy as np
import pytest

import mxnet as mx
from mxnet.operator import _gemm_order

nd = mx.nd

_EXPECTED = {
    "dot_mv_k2": (
        "becb09693f00b8983f5d0d4a3ebf1243bd413e16bea93cedbf242fe8be4f1ccbbdb891a93f2a2067bf77078b"
        "bea24512bf583b3e3f7af699bf21ee1e3e813f1cbe3871703e99f6f8bf2eab05beb3b8d0bf188351befc150f"
        "3e4d336d3e92d22b"
    ),
    "dot_mN1_k2": (
        "becb09693f00b8983f5d0d4a3ebf1243bd413e16bea93cedbf242fe8be4f1ccbbdb891a93f2a2067bf77078b"
        "bea24512bf583b3e3f7af699bf21ee1e3e813f1cbe3871703e99f6f8bf2eab05beb3b8d0bf188351befc150f"
        "3e4d336d3e92d22b"
    ),
    "dot_vm_k12": "bfd57b16bfeebb41bf474288be9d06df3ef78713bf83efb23f9e441a",
    "dot_1x1_k9": "bfe4b191",
    "dot_mv_f64": (
        "3fc3a1efb4ebee893fa3c64d0d1beec1bfe44efe5234c8e23fd6d1347d6a5cdabfb08deff7f353fd3fbc9de9"
        "8288157e3fdb1e40eb08f741bffccf5ef2048c563ff85b426e1e25f9bff371b66f40e230"
    ),
    "batch_dot_n1": (
        "3f4761c63f3a4882bf8feb06be6db39b3f53c693bd2741e3bf06255b3f00215dbe8610b7bed47a593b543980"
        "bf3f1d99bfa3c87a3f6c29a23e4bf6ffbe32d475bf3caa4b3f1e408f"
    ),
    "gemm2_n1": (
        "3f4761c63f3a4882bf8feb06be6db39b3f53c693bd2741e3bf06255b3f00215dbe8610b7bed47a593b543980"
        "bf3f1d99bfa3c87a3f6c29a23e4bf6ffbe32d475bf3caa4b3f1e408f"
    ),
    "np_dot_mv": (
        "bf8d5c26bfe2f2edbf8134d2beb2a8b93f1d6313bf69b181beb2f3f6bfa1b64d3eb992a2bfd09bec3f0ac391"
        "bee3bb4e"
    ),
    "np_matmul_mv": (
        "bf8d5c26bfe2f2edbf8134d2beb2a8b93f1d6313bf69b181beb2f3f6bfa1b64d3eb992a2bfd09bec3f0ac391"
        "bee3bb4e"
    ),
    "np_matmul_vm": "bfd57b16bfeebb41bf474288be9d06df3ef78713bf83efb23f9e441a",
    "dot_grad_w": "3eb654ccbee0df69c0261a89",
    "fc_chain_bias": (
        "bfa00398bdab4b60be6731b6bec14d543ea2e67ebf72ffbc3ec34f64bf2239d8bf8c2b563f869be2bec67fcf"
        "3f7076a0bedf00d33eda12f03e858c903f5a96ccbf373b543f2f8d98bf12406abe070428bfde97f6bf61d207"
        "3e925eb83f457549bf383488bfc0ef6f3ed8fa523f494b9dbfbacb3abeab6a0e3e4147f03d3af5903f841bda"
        "3f880ed93e6012223f9a015ec0015ed54007860b3eb640b03ff4af55bfc0c390bec2e70e3e0c9eee3f1cb7be"
        "3e6868e0bfe892bfbe9d195a3fdac3b0c0289d993d8ec92a3ebba5143fd13d3abff29fa23f476d943f13a472"
        "3f69e6953e4e45243e3c58883e818e883e906497bfe6126e3d8bb9443f9b8fc63fac8840bf997e533ee89d8e"
        "bf2af6aa3f4874333ec880dabdd104eabfae29163f9ea44abfcfa2f6be0244d63dfea0ecbe569818c028b595"
        "3dafe7acbeb8cc7b3ec914653f9e6f68bf40162ebfbb2a00bfa4ff10c00d20503e7e7fda3e1725523f8f457f"
        "bf817b8cbf131e293ef7fc983e036830c001084bc04c76753f3e6c5b3ef76914be45905cbfeb69fb3ea774b7"
        "bf160fd6c011cc67be89dd853b80b2603fd125b1bff465de3f96c0913eef51584017d12ebfc81293bf22ab09"
        "3ee752683f1c87453eca33de40236310bf4f91ee3f04a3a5bf374f133f21c009bfae232e3e922e26bf389a03"
        "3f9c9cb8bf9eacb83f4a037a3efc11923f83b70fc01e50f73f89d102"
    ),
    "fc_lanes_k20": (
        "3e6a732c3e68af4ac0245926bf111667bf2adcd13f81f39a3f6febf6bfb685f84063e8b63fa952423f348649"
        "c0300274bec0f344bf576f024004c3b8"
    ),
    "fc_linreg": (
        "beda61bdbb454c80bde126f2be974bdabe4eea62bdd4191cbdcf548a3de6e0b43a0b2a00bca26240"
    ),
    "fc_noflatten": (
        "3f9ac04ebd94445c3e5e0af2bf5a52763eaa3f5abf5c07bdbdf8dd3cbecb9c163f233d23bf86405e3f813214"
        "bee126d4bfa09f8dbf0ffb183f829a62bf6ea26a3fc7a0a83d13a9a83ee83d8c3ed178123f575c513f02ca27"
        "3ec7534cbe2ca67cbee72803beb493e0bdc6439cbd1c0bd03fe192643f2ffb833fd30cff3e4091153d80b9d0"
        "beb8c4273ddb0718bf49bcda3ee8c3c8bec427643d24d850bf734d743f82b3e7beb5f1eebe5197eebebaa3d5"
        "3f4a3296bf8313f93f753eddbef31f1a3f20c353bc4b2ec03f91eab8bf8323563db24018bf96f30b3d65b6b8"
        "bf47bf06bd1e4e98bfd2a63f3fb25f85becd38d13f740bd0be23599e3f352680bfa77c2a3e31daecbf9daec1"
        "3f05e179bed655963ebf7d50bfb1752d3f3d069dbf4f1f7d3e0829da3c8c6fe83f92e6b0bf0fd5133edd5724"
        "bf2d95c9bdf0c118bf034548bef77ac2bece711e3fe7da053f102030bf0d0bb2bf1653f43f5167eebfb09007"
        "3f99fd8cbeea6a24bf3dc086bf37ff783eae3a64bf96a3383fd81de43d412ab03f7774063e858d723ea9b791"
        "3e12002c3ecb502abea4c42e3ec3b028bf0a05cb3e22ad10bfb5802e3f802826bf1b786e3eb196a93e8ab89a"
        "3f88fdcb3cc599003ea0d616bef50ffbbd80ac80bed691e6be8febeabebb37883fcf830a3ed82cec"
    ),
    "fc_flatten_k8": (
        "bfdc2426bf841a563f0550583dfe7492bf889043bf29baa13eb747f0bf404c6c3f8e720d3fa5aaaa3f8f07b7"
        "3cbb95733f818aa53baea86cbecc3e03be2f3fe0bea3b7623f8df34abde2f224bea48ba9bfa6de3a3f156c92"
        "bf123e343f54f2443ee2beb83e0b4cc2bf8dc649bfb257f53fbbb2e1bedfab95bfe3aab8bda74582bf72e601"
        "3f01289d3f81ffa9bef6fb99bee60beb3e88d838bf94f6b63f2bc00a3f776683be5cdde9bf01cc153edff06d"
        "3f0b99403eb941ffbd55c624bf0e0fbe3f33dfc6bfb903bfbf799a30bf12cab33f54ded6bf94c9afbf12e861"
        "bf26e0203f05cda2bfafbac13f72732a3f6c496f3f4fa878bf37c8a7be6232f33d3059a2bf4e0132bfd85821"
        "3e5cf845be9a6d1bbe11aa753db5aaaa3c2e2811bf3c6e7b3f4d958fbeb7566fbfbfb34ebf2f2795bec99b53"
        "3e9797cebed973ad3fa6e9ea3e4c5a503f286afcc0106e2b3ffbe0563f98c417"
    ),
    "dot_mv_ta": (
        "bf8d5c26bfe2f2edbf8134d2beb2a8b93f1d6313bf69b181beb2f3f6bfa1b64d3eb992a2bfd09bec3f0ac391"
        "bee3bb4e"
    ),
    "fc_chain_n20": (
        "c01b0186bff1ccef3f8cefa7bffec36c3f051f56beb5e63a3e2271f0bff393973fab7d82bf13a2df3e4f6216"
        "3f188ed6bf6b51cdc055a3cabf6c4c2a3ec90e8cbf7e69febff7e9e63fa9a8a6bf18d7393c92e468bf248d80"
        "c007c6acbffdac4fbf37c0c4beaa00f53fd7b2bb3f157ab63ebc2ce43f7d2b873f30369a3fd1bdb53fe74cc4"
        "c03b25eabf5f518c3fadff10bf5f346abf76cb6e3f96a3d4bdfff4e0bf96f244bfbf037abe9cc130bf2d709a"
        "bfcf4a9d3f29d8c9be80160dbfb505f23f8c90c53eccdc58bfa54e263f037492bf8ae930bf4990363fd91fa0"
        "be05f760bfbb39763f1b3018c01fb7a4bfabe53ebec603763e90e834bd6fc3b03f4cea943f6775e83f871cf2"
        "40292e193f7525c8bffd493a3fb0954e3f629110be0ed5d840113e8dbfb53e00bec2984a3f2d00b6be69cae0"
        "bdf38160bf120f38be127582bf77541abf1409473ed48716bffe0cac3f4d61b4bf15276d3e8baf62bf764e62"
        "3f80a176bf16cc663f726548402d9212bfa5ef8ebfda44743fc282003f9c9246c0229424be08cc08be0c7134"
        "bff36082bbe281c03eb910b23d8914a03ebf75133fbea9d53e4c39ec3ed6b8f6bf5034a83dca0d8c3f587058"
        "3d94d7d0bfe7c8133f7bb3553f350db03e4cf8d8400a247abddde2c0401c6bacbed485a0bf1f23573f65eabc"
        "3f9ee03ebfb5088abf3044b83f3fad1dc0315b17be7aa7acbf4686c6400130843f58934cbbfc0f00c042c2c8"
        "3fcca62d3f54c6babfa7a6964010b95cbf0fbdf54062d4583ffddd99beffb72dbf57e2efbf65ee51bf79e93a"
        "3e44e06e3fab32ecbf4c362d400a61d94012b5c83f08a7d84022d285bfb74958beeaeb574012a92fbcc17ee0"
        "bf6ca0fe3fb2d0e6bec9936f4031695dbe05b5e43e995fb0be7c06883f31b22a3f19f3bebf82b9f33fc08e10"
        "bfff5d3a3ff3a20f3ff330f23db15abc3f6711b4bf80f16ec06f9860404150a0bfd158bdbf22fe173fdd6233"
        "bfe219f43e983a763f944c65bd2704e0c00fd942bf24ebda3fc217743fa4da703f72db7c3f01a6dfbf7c13dc"
        "c00a109f3e38ee3a3f820c2ebf73f5bcc091e0183faf0f2cbf2a58603f3b9f273f101ab8bf53246f3f37fcd3"
        "bf2b75fe3f90e92cbec78afb3f230e26bfa6ded63fc8f1c2bfb330db3ee6734a3f7f321abf981cfe3f2b9dfa"
        "3fdd0f02be4940fcbf2b80f03f6125ddbe47f030bff14414c000cf693f2ccfd8404ae9f43b5be9003d8e65e0"
        "40200a73bef9069ec0066192bf7026a63f5175b9bea40f39bed6d3d7bf40d53a3f3394f2bf970ed840199387"
        "3e9412f43e4b47c83eb92f3cbfc5b0983f2653103f24fc58401aa73c3fd6aa05bfa8d136bf17b989bfb9988e"
        "3e1efaf03c056f40401a204d3f76a319beaba31bc0084d433ced1bc0bf13a5ac3fea2b313e8300503e6cee18"
        "beef88c23f23f7f1401a0330bf323ff43f0acbb4bdb93d90bf10bc6cbf45764cbf90c6c03da9a5983f806ef2"
        "3f6b8231be3a17043e854967bfddcee23eaa5ea5be94fc683ec5ecc8c054f9f23fe49296bf8af4febf8a3254"
        "3e2c5e1cbf4ce97e3ed7879a3e853fc23e45eb003e8b28b4be954f52be85e5c7bfffd60a400edf11c023b421"
        "bec4ca27be568a6f3fa5f0b9bede437e3f416516bf11b0603ede24683deb81683fb90fb440788c8ac0276032"
        "3f94594a3f15198cbfcf83603f864886be758ec0bfb7f578bf41f8343fd7a955c038feca3e8b9ada3f4f78fa"
        "3f42642e3ef7627e3f454fdc3e3c4b683e8421d84008d01a3f2f31ad404d61bcbfaf2f7d404484afbebd3ab8"
        "c00e55cec002db29be9ea90d3c1d7e00bfc45bb9bdd45308bfa71af63fdcecba3f7e0d6a3f8464924008ccfe"
        "c00d9157c00a4ca040299983c03b694cbe50886d3fe9dfe1bff6413abf304d183f12480e3f4633333ecd6233"
        "bf0069dbbfc25ea5bf8ae3323eb70a4bbf8b8d383f835df0401493f8be04ddda3fdb21eabf6ddde2c016e200"
        "4062aac4bf92f4903f53bf7140185cc8bfdf4d553ecc1d3abdefb7a03f205cdfc0267e4fbfe05f953ed7e99c"
        "bf88af233e23a832bfe2fb163ffb9b9a3d78d8a83eab90733f771d12bf4a7e20be3f66403f1c9b6bc017fcd2"
        "bf4db1a83fb89ff4bfb44bb6c000b6e5be75f920bf6f3a763f1f62eb3eaeea503e4659583e19dc4e403493c6"
        "be05418c3f16a6c73f6d2bfabe3fe70a3f2bf1ca3e5e5306c01d42cc400efb543f0139fc3ef797204012e957"
        "bf5e2956402dc6ae3e963c00392d10003f180af1bef9e295bf62528ac01006143eae411ec0534894bf32ecc0"
        "3e1d64123f4fd6743e131319bedc8944c07d4b1c3fcb84d8be131ca83f1837294078e53abfc8d8e4bec1ac00"
        "3f06742dbf848cb43f0160b0bfc0a509c00d1814c008586e3f8483d9c0a669424045ae5f40751acf4003aa70"
        "3f4222f8bfcad16abf9713cb40358ae3bf1ec6f4bff05990402713d6c0302b693fab93f23f82a8b0bfd3e4aa"
        "bf085252bfbf58103ebd3c583f9efda83f9fb3543f63c1a1bf1045e0c05240e7be3f40fabf9e948840025c64"
        "c012c3023ea4b840bf539fb7bfedae00beb4fba83f4a5d1e3dbf28483f4ef6c4be2f0146c0052eab3e34a480"
        "3e784acc3f75ff063ec2cad73f108725bf9a3257c02e23e63d8b16ac3fb1e4d23f8ed5e0bf9bd3803f914e5a"
        "bfc0e01c3f5b81e13e49744cbf8cd7f43ed768a63f0b28f93fbc4d683caa0958be8cda55beecaaf23d713258"
        "bff1646d3fad25a8beccd601bfea998cbf1441d43eef433f3c4995c0bf588f7cbf257c05be0b3d1a3f544acf"
        "be156cb03ef93ae43ea57530c0026586bf9dd3c4be976b7bbea274f6bf5cf5a73ef54b873e1fc57cbfb85ebf"
        "3f1e31d2ba9620003e42c5283fb7f9b83e13ed38bfee3e2b3f6b0bb23eaa416ec01f0bd03b6fef003fa55897"
        "3ff6a4b53f89394cbe5c5e38bf0c54493f74e596bf91dca83fab1bddbfc72d9dbf943c0c3fbec89dbeed9f98"
        "3eb87d9040064f19bfab24d3c080c08c403618f7bf0dd557bfb49938be959840bf027e123fd61844beb38bc4"
        "3ea89ca03fd8c635bf569d3cc022cfdabfe86fa53ec4fd34c0119fdfc01f1aaac01582003eef9cf4bfa64a54"
        "406a7f4fbfb10a4d3f915b7abf4ba708be5fb3a24030647cbf4d806dbf78e0504028650abea733babff9b32c"
        "bfb58bb83f33dec2bfa5fe3e3f822ff73ed8b4ea3e3766bfbf9c44053ea017913efb001e3e0859543e02ae88"
        "3e2c042cc00bfb253edde4303ffb12afbf51d05abf9745163e478f9abdecdd88bf014e83bef78f9fbf36972b"
        "bf035ce8bf62e4863e8c2d1ebf14cb34be6fc0043ee77c293f9d17c9beea1fa4c008939c3fc4358abfea4e29"
        "bf0915a2bf5b1822bd9f27283f0c4b3f3f72dc343f9f2420be36c5cdc025c3ebbf91c8a4bf67d7d03e45604e"
        "bef86206beca70e3bfd8c9f83f6d155ebf92e9583f9c2d1e3f5ca14ebf139a29bf551f27bd1b42783f6b0b20"
        "bf86d9ccbe704fc0bed0dde8bfc1874e3f84e8013f8d1364bfefd595bfc7e4bc3cf6df40bee7f321bf951145"
        "3f1427a83fcff9533ffc4b80be031f18bf2689aa3fa9c2bebe1ce7e2be86cc343f4defbb3e7c8994407606c9"
        "4015185d3f8a9c74"
    ),
    "bw_fc_32_10_10_dx": (
        "bf1aefc63e1861c4bf585b193f03d20abcb708efbdca2f06becd49ac3e2561313f1794a63e45ef603fc7de46"
        "bed957ec3d8785353f07b630c02cdf5cbf80674abedf0486be337b513f873e80bf7aff763efe63c8bdec4655"
        "3f61b9013f5dcf7e3f04e93fbf71701a3db5430bbf7132f1bfc5daef3f6898523f581e6ebf8f06d6be3a15fb"
        "3f4ea1d83e0513cbbfcd703e3eda734e3eaffb743f1cdf64bf7184f3bf32c06dbf3257b63f1dd5833f80a4bd"
        "bf42d512bfa3bb583f991428bf0610433fd23ed7bf1a1e4a3ebffbdabfce1e9c3fe5f2923f2d90e6bf55d29f"
        "bf88c6333f9beff5bf5a6ba93f267337bf7a41aa3ffa17cbbffd755e3f9bade9bd5d18a7bf0aeb04c04af79c"
        "3eb5cf5f3ed237603f26a00dc028a4723fe3db123e79f48f3f08e3b63f74b321bfeea903c00024533f3ebb0e"
        "bee780423e831c67bdad2ae0bfb36140bfd32b4fbf3d18523e72f7113e3f350e40363efbbf8e669c3e1ee6e8"
        "3f0bbeb5be01d33c3edf948bbf98c971be554458bf883ff43fd67ab9bf45458a3f0e6c8b3f94d3373f20224f"
        "c0068283bf5d519d3f701e1cbfad710b3e163fd73ef23d143e8f1ba13d5cb57d3d976dbc3f8fdde33e0e95c9"
        "c008758cbeeb8911bed6ce1cbf0437343f298fd43eab7922beed5962bf202c9fbf524054bf6ad11e3facd674"
        "be05e6a140164d76be3b03f03df3a20ebe7f86083edf1fedbe957daebf95f2543f81b6ff3f5bf0ef40148f1a"
        "bf769c0fbdba6eaabf8d8bc5bd9a590abf1820133f42ebe23e811bc43fc3aa1940111cd4bf4323da3fcaacc4"
        "3ef8e935bf1d18f4c03ce8843f8f53bb3f82ec5f3fd7311ebf331abbbfe441993daaf157bf873ddabe457762"
        "3fa6136d3ff7f889bf10eb76be8bcb10bf80efa73f0e61e7bee7b8e73eee1974bf81a9bbbe00bb2d3f339f47"
        "3f31d75fbebcf7213f26c414bd8c21c83f05073cbe1327e8bea6b3d7bec27d3ebef37c573da1e209bf8bba3e"
        "bf2178aa3dbb52743d930f16bfb15949be3f7c2bbf994d003e079ad2bf3b2bf13ed8b58cbf1b85b7be443ed7"
        "3f0cd2a03f5e5f30bfef97e5c013a0033fc65123bfe081a4bf9f63abbdd18d5f4016d995c0150bc5bf8e7272"
        "c006194e3e9756893fae74213ea99140be592cb23f8f94d4bfcfdbb8bfaf52373e6713cfbe6b6e703efa73af"
        "3e50e32abfb7c6673ffbee3bbf30c91abd59690f3fa8ac363fb4d57bbad6c370bf01e8a6bf99db3f400a9c8b"
        "3ef296b0bec61dc33ea8eef1bf4f6a31bf1b3755bfde9d6a3d9a19b2be9e4e4ebfa73449bfe4cd133fc089a2"
        "3f8749ee3f97a5b83fc9ccfec0068c1ec02172213fc47881bf8d6b323e8528cb3f7f835d3f1af4ce3fbf7828"
        "bf51b9ac3f6dedd2c01d299dbfb6420bbf02f404beefd7503e7037993f1635353fdb55653f090472bf98ff6f"
        "bd56f9d8be814348bf1de671bf42b1933f64a80a3f7b8cc9bed01287bf90db0d3ecae8263facc3633f15ff19"
        "be9cca1ebfaa970d3facfd67bf8ceb9a3f2c31973e999ac9bfc0bfa73f874de5bec34924be5357b5bdefbde9"
        "3f6f542fbf53c2e8beab63953de692d83f5d2a26401a3d06bf8d92343dc96fa73fa1839abf38c666c02fd344"
        "3df3ae8d3eced8603fdbf40bbf988fe4c027b0d03f7740eabfaa9553c00cd5623fae2baa400a8bf8bfb995b1"
        "be716e2fbfd03e12bf249ec73f14df3dc01278893ed4cd473f342546bf82cf6bbf2bea11be4d93d3bf3ef090"
        "bf1dc001bfd44307bfb1cc3dc009085c3f2ebe57bf409d463f913cd33f2c362c3ea60748bf33c4d7bf679487"
        "bffa5816"
    ),
    "bw_fc_32_10_10_dw": (
        "3ec7c924bfbfdd5d40372c3a3f8b7a583e2e1362404dde53bf190f133f9c39a13f32d4e33e9dadc13eb66d63"
        "c04005133e6174823ef12d2b3f489e4bbf062037becf5b01402cdd59c0253a8c407436e5400b153c3fe3780f"
        "401b643a3f2b03094019af9a4089a7223fba8b0f3fcfb8683fad52bb400f0ad93fe075eb3f013cb93fca88b2"
        "3f151229bf31b5e63dea43873f2ea7ec3de5256abf8b4024c07679583fd698a9401b5aa63f10ce4a3fb2a900"
        "bf329344c013b31dbf38ecc43f954138402209adc0082e403de3fc78bf7aa0ff3e41ed98bf35328d3f90a9c2"
        "3f0da11fbe053eca3f38d085bf99e01abff23e403fc844f4407acac8bf1dd7523fd3dc71402fe03040ac6571"
        "3f9b8bf7c0455dbd402c91d73fa67f11bfadbee4c02ac6f3bfd42923bfb4f6dabfc35ecfbf9a8a9140476111"
        "404feb633ddc72443e9ef5f0405f80923ff72d14407cb27e3fda8ff23f813b36403b0065bfbc896bbe80171a"
        "bf3302a3bdfc681a40505ce53f73908cbbc72b0c3e37700fbfe14a913fd0102ebfbdae82bf14776f3ec21373"
        "c01b002b"
    ),
    "bw_fc_32_10_10_db": (
        "40215c9dbfd50b8ebff53c0c4090eedec05f702640d82a623d9d1240c08755a1409d364fbeb3ab28"
    ),
    "bw_fc_linreg_dx": (
        "bd535cbcbdb0031cbecec74fbf2c31f0be563a6abeb266143e4214213ea19e833efd89293f5321d83e030e90"
        "3e5a46893ea549903f09a4aabef93781bf4f891abe806428bed5d5fc3f028af93f596b5e"
    ),
    "bw_fc_linreg_dw": "bf478b1c3e8fe3c6",
    "bw_fc_linreg_db": "bedd5985",
    "bw_fc_5_20_3_dx": (
        "3e3f29943de39a1cbdf06a74befb823ebebbb167beaac680bdc0206e3e145c5cbeee7bd5bf53958b3d59aa59"
        "bea0dc733f8921013f4e5f89be8c353abd20b9153e8e50c03f64df3e3e63f1873e91b10e3e7c143ebebab997"
        "bf0b6a65bdbd0015bf5fdf923dd361ffbe34a120bd64ad82bf435f23bf3687f13f832999be77779f3facd066"
        "3efe3965bf870b683ed309163d88e74f3f38d35bbe082892bf15b4aebe396eb73e931597bf7fbbd83f1007e1"
        "bf669ec3bee86104bf90f466bf8c4a3ebf01ee85bec8fab63fe1d8573ec39a6c3f2049df3e2ec70dbf323938"
        "3db9bd1d3c3cfe353df7e995bf11abe8bf4ce79c3e23255a3da9a8503d563fa6beee2236be135163be6c8e7e"
        "3d8175b63e7edbdfbe8e6f51bf17e1e1be6587cebe938a6d3f3a5e0a3f1da76dbda14a0abd8e868c3e65e80d"
        "3f2dfe7f3e8418e93ebae8d13ecb4d83bf82676c3f18337cbeacd5c63e7b69f03f8a2d173fa404f73f94c123"
        "3c4868823ea2953abf4bcd2abf0346be3d85d578bea9fc2abec17d103f082505be54ac3abcf02cdb3e97896f"
        "be0e13c3"
    ),
    "bw_fc_5_20_3_dw": (
        "3e95dda73ec357443f5012ebbe63e13a3c93112c3fb88593bf80146c3f08c93d3e1ae9f33f219876bf775501"
        "bf3518abbf71f3ddbf2c96023efbd12dbf558be6bf73f8d83e10ba7c3f116e1d3dfa80cdbf88bda8bf64e77d"
        "bf10b7f5be78ada4bf365a73be9b9d423fa9bfdb3f2a18b73f39f426be8c0efa3ecf6243bfae32d9be342499"
        "3ecc6d24bfc4c459bf6ed0a4bd87d3393f6254fe3f4fd4b23e2edcf7bf83c972bf0d82c2bd893f543dab7dd1"
        "bf8d97e73f21272d3e5f3598bea686063dc4fa9b3ff4c9523f820f433ece741b3e31ab593f37d89bbfc6ee21"
        "bdcc91a83f9280273e3940c0bd33f8403f269a90"
    ),
    "bw_fc_5_20_3_db": "c0073d7d3fb8aad93fd18925",
    "bw_fc_20_4_1_dx": (
        "3d212bae3c2e7def3b5706043cf91322be7dacf6bd895247bca93808be4404373e62d5973d75953e3c97505c"
        "3e2f46ac3e7b1dfb3d87efb83ca7831d3e420a1c3dd20b7c3ce367e23c0c1d3b3da24d813ccf04d03be0212e"
        "3b0a18793c9ff6e9be36705dbd4584a3bc7365f5be0cf8b33d8a3d723c95aa813bb86e533d55a337bd932250"
        "bc9f4b8fbbc44bf9bd6361e83e7d69173d892d893ca90ac13e43cfc53dad2a233cbb7a2c3be7066b3d85ce20"
        "3dc8cf363cd968313c05f4193d9b2a9e3e7c3c903d888ada3ca842483e42e78d3dc6b3a63cd720083c048c2c"
        "3d9989b1be1c8fdcbd298098bc50dff8bdf1f3d3be0eb45cbd1a7fe3bc3e6321bddc897dbe20bb0fbd2e0401"
        "bc566fc3bdf86516be751014bd84a8b7bca37939be3d5c7dbe38b044bd47f424bc76664bbe0eb5b53e037933"
        "3d0e57153c2f67463dcb2e2f"
    ),
    "bw_fc_20_4_1_dw": "be916679bfe818bdbe90f62e403958c0",
    "bw_fc_20_4_1_db": "3f544108",
}


def U(seed, shape, dt="float32"):
    return np.random.RandomState(seed).uniform(-1, 1, shape).astype(dt)


def _hex(a):
    a = np.asarray(a)
    width, view = (8, np.uint32) if a.dtype == np.float32 else (16, np.uint64)
    return "".join(format(int(v), f"0{width}x") for v in a.ravel().view(view))


def _dot_grad_w():
    x, w = nd.array(U(12, (30, 3))), nd.array(U(13, (3,)))
    x.attach_grad()
    w.attach_grad()
    with mx.autograd.record():
        y = nd.dot(x, w)
    y.backward(nd.array(U(14, (30,))))
    return w.grad


_A, _V = U(3, (12, 7)), U(4, (7,))
_B3, _C3 = U(10, (2, 9, 5)), U(11, (2, 5, 1))

_CASES = {
    "dot_mv_k2": lambda: nd.dot(nd.array(U(1, (24, 2))), nd.array(U(2, (2,)))),
    "dot_mN1_k2": lambda: nd.dot(nd.array(U(1, (24, 2))), nd.array(U(2, (2,)).reshape(2, 1))),
    "dot_vm_k12": lambda: nd.dot(nd.array(U(5, (12,))), nd.array(_A)),
    "dot_1x1_k9": lambda: nd.dot(nd.array(U(6, (1, 9))), nd.array(U(7, (9,)))),
    "dot_mv_f64": lambda: nd.dot(nd.array(U(8, (10, 6), "float64"), dtype="float64"),
                                 nd.array(U(9, (6,), "float64"), dtype="float64")),
    "dot_mv_ta": lambda: nd.dot(nd.array(_A.T.copy()), nd.array(_V), transpose_a=True),
    "batch_dot_n1": lambda: nd.batch_dot(nd.array(_B3), nd.array(_C3)),
    "gemm2_n1": lambda: nd.linalg.gemm2(nd.array(_B3), nd.array(_C3)),
    "np_dot_mv": lambda: mx.np.dot(mx.np.array(_A), mx.np.array(_V)),
    "np_matmul_mv": lambda: mx.np.matmul(mx.np.array(_A), mx.np.array(_V)),
    "np_matmul_vm": lambda: mx.np.matmul(mx.np.array(U(5, (12,))), mx.np.array(_A)),
    "dot_grad_w": _dot_grad_w,
    "fc_chain_bias": lambda: nd.FullyConnected(nd.array(U(20, (32, 10))), nd.array(U(21, (4, 10))),
                                               nd.array(U(22, (4,))), num_hidden=4),
    "fc_chain_n20": lambda: nd.FullyConnected(nd.array(U(33, (32, 12))), nd.array(U(34, (20, 12))),
                                              nd.array(U(35, (20,))), num_hidden=20),
    "fc_lanes_k20": lambda: nd.FullyConnected(nd.array(U(23, (5, 20))), nd.array(U(24, (3, 20))),
                                              no_bias=True, num_hidden=3),
    "fc_linreg": lambda: nd.FullyConnected(nd.array(U(25, (10, 2))), nd.array(U(26, (1, 2))),
                                           nd.array(U(27, (1,))), num_hidden=1),
    "fc_noflatten": lambda: nd.FullyConnected(nd.array(U(28, (2, 10, 3))), nd.array(U(29, (6, 3))),
                                              nd.array(U(30, (6,))), num_hidden=6, flatten=False),
    "fc_flatten_k8": lambda: nd.FullyConnected(nd.array(U(31, (17, 2, 4))),
                                               nd.array(U(32, (5, 8))), no_bias=True, num_hidden=5),
}


@pytest.mark.parametrize("name", sorted(_CASES))
def test_bits_match_191(name):
    assert _hex(_CASES[name]().asnumpy()) == _EXPECTED[name]


_BACKWARD = {"bw_fc_32_10_10": (32, 10, 10, 60), "bw_fc_linreg": (10, 2, 1, 64),
             "bw_fc_5_20_3": (5, 20, 3, 68), "bw_fc_20_4_1": (20, 4, 1, 72)}


@pytest.mark.parametrize("name", sorted(_BACKWARD))
def test_fully_connected_backward_bits_match_191(name):
    # oneDNN's backward: dx and dw are one FMA chain per output, db a sequential column sum
    m, k, n, s = _BACKWARD[name]
    x, w, b = nd.array(U(s, (m, k))), nd.array(U(s + 1, (n, k))), nd.array(U(s + 2, (n,)))
    for v in (x, w, b):
        v.attach_grad()
    with mx.autograd.record():
        y = nd.FullyConnected(x, w, b, num_hidden=n)
    y.backward(nd.array(U(s + 3, (m, n))))
    for part, v in (("dx", x), ("dw", w), ("db", b)):
        assert _hex(v.grad.asnumpy()) == _EXPECTED[f"{name}_{part}"], part
    # the weight-only backward (data needs no gradient) gives the same dw and db
    x2 = nd.array(U(s, (m, k)))
    with mx.autograd.record():
        y = nd.FullyConnected(x2, w, b, num_hidden=n)
    y.backward(nd.array(U(s + 3, (m, n))))
    assert _hex(w.grad.asnumpy()) == _EXPECTED[f"{name}_dw"]
    assert _hex(b.grad.asnumpy()) == _EXPECTED[f"{name}_db"]


def test_fully_connected_out_and_symbolic_paths():
    x, w, b = nd.array(U(20, (32, 10))), nd.array(U(21, (4, 10))), nd.array(U(22, (4,)))
    out = nd.zeros((32, 4))
    nd.FullyConnected(x, w, b, num_hidden=4, out=out)
    assert _hex(out.asnumpy()) == _EXPECTED["fc_chain_bias"]
    sym = mx.sym.FullyConnected(mx.sym.var("x"), mx.sym.var("w"), mx.sym.var("b"), num_hidden=4)
    ex = sym.bind(mx.cpu(), {"x": x, "w": w, "b": b})
    assert _hex(ex.forward()[0].asnumpy()) == _EXPECTED["fc_chain_bias"]
    # the executor's backward writes into its gradient buffers
    m, k, n, s = _BACKWARD["bw_fc_32_10_10"]
    args = {"x": nd.array(U(s, (m, k))), "w": nd.array(U(s + 1, (n, k))),
            "b": nd.array(U(s + 2, (n,)))}
    grads = {name: nd.zeros(v.shape) for name, v in args.items()}
    sym = mx.sym.FullyConnected(mx.sym.var("x"), mx.sym.var("w"), mx.sym.var("b"), num_hidden=n)
    ex = sym.bind(mx.cpu(), args, args_grad=grads)
    ex.forward(is_train=True)
    ex.backward(nd.array(U(s + 3, (m, n))))
    for part, name in (("dx", "x"), ("dw", "w"), ("db", "b")):
        assert _hex(grads[name].asnumpy()) == _EXPECTED[f"bw_fc_32_10_10_{part}"], part


def test_signed_zero_and_edge_shapes():
    # the FMA accumulators start at +0, as oneDNN's do: -0 products give +0
    for rows in (4, 32):
        y = nd.FullyConnected(nd.array(np.full((rows, 3), -0.0, "float32")), nd.ones((5, 3)),
                              no_bias=True, num_hidden=5).asnumpy()
        assert not np.signbit(y).any()
    # K = 1, one row, one unit: no emulation needed, plain products
    x, w = U(40, (6, 1)), U(41, (3, 1))
    y = nd.FullyConnected(nd.array(x), nd.array(w), no_bias=True, num_hidden=3).asnumpy()
    assert np.array_equal(y, x * w.T)
    y = nd.dot(nd.array(U(42, (1, 4))), nd.array(U(43, (4, 1)))).asnumpy()
    assert y.shape == (1, 1)


@pytest.mark.parametrize("shape", [(64, 40, 10), (300, 16, 64), (3, 100, 5)])
def test_large_products_keep_blas(shape):
    # past the emulation limits the layer is NumPy's GEMM (close, not bit-exact)
    m, k, n = shape
    x, w = U(50, (m, k)), U(51, (n, k))
    assert k > _gemm_order.FMA_MAX_K or m * n * k > _gemm_order.FMA_MAX_WORK
    y = nd.FullyConnected(nd.array(x), nd.array(w), no_bias=True, num_hidden=n).asnumpy()
    assert np.array_equal(y, x @ w.T)


def test_emulation_close_to_exact_product():
    rs = np.random.RandomState(3)
    for m, k, n in [(2, 3, 4), (15, 32, 7), (16, 2, 9), (40, 17, 3)]:
        x, w, b = (rs.standard_normal(s).astype("float32") for s in ((m, k), (n, k), (n,)))
        y = _gemm_order.dnn_inner_product(np, x, w, b)
        exact = x.astype(np.float64) @ w.T.astype(np.float64) + b
        assert y.dtype == np.float32 and y.shape == (m, n)
        np.testing.assert_allclose(y, exact, rtol=1e-5, atol=1e-5)
    # vector-shaped products through GEMM agree with NumPy's within rounding
    a, v = rs.standard_normal((50, 20)), rs.standard_normal((20, 1))
    for dt in ("float32", "float64"):
        got = _gemm_order.gemm(np, a.astype(dt), v.astype(dt))
        assert got.shape == (50, 1) and got.dtype == dt
        np.testing.assert_allclose(got, a @ v, rtol=1e-4, atol=1e-5)
