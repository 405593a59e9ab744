//! The known-answer data of every parameter set (record 0 of the NIST KAT
//! files; `tests/mceliece/self_test.rs` re-derives and checks every value): δ, the
//! bytes `FixedWeight` draws for each (n, t), and the digests
//! `SHAKE256(x)` (32 bytes) of the official outputs.

use super::{KnownAnswers, hex};

/// δ: the first DRBG draw of record 0 (the same for every set).
#[allow(dead_code, reason = "unused when no parameter set is enabled")]
const SEED: [u8; 32] = hex(b"7c9935a0b07694aa0c6d10e4db6b1add2fd81a25ccb148032dcd739936737f2d");

/// `FixedWeight`'s accepted draw for (n, t) of `mceliece348864` (256 bytes).
#[cfg(any(
    feature = "mceliece348864",
    feature = "mceliece348864f",
    feature = "mceliece348864pc",
    feature = "mceliece348864pcf"
))]
const E_348864: [u8; 256] = hex(
    b"8626ed79d451140800e03b59b956f8210e556067407d13dc90fa9e8b872bfb8f\
      ab0a7289852106e40538d3575c50028da0e37a216dd514edd89012cfcc19d206\
      51e0253466bc99245685025bf91ecbd72b3ab2779f87d64e65576930e222f949\
      f7268c8d6ecc552c8fec69e22a5fc0b63c5c51ba9c0ed0be2e84312d568c368d\
      9a182218de7d308424f5e6854a8241482b85bd787c98e142fd1b748cdda01702\
      0968dca71f9e43cbdbc720001f517be6c03ceb49e927a9d4c61f76c111dd06a3\
      c05feaca22711a349143fca2059f0709f0e16c99ebac97a093aa91045024e642\
      e696e7b52d20fe3f0a31ce5b18ea6e04a5d30fd8026be795796bd336871444a3",
);

/// `FixedWeight`'s accepted draw for (n, t) of `mceliece460896` (384 bytes).
#[cfg(any(
    feature = "mceliece460896",
    feature = "mceliece460896f",
    feature = "mceliece460896pc",
    feature = "mceliece460896pcf"
))]
const E_460896: [u8; 384] = hex(
    b"8626ed79d451140800e03b59b956f8210e556067407d13dc90fa9e8b872bfb8f\
      ab0a7289852106e40538d3575c50028da0e37a216dd514edd89012cfcc19d206\
      51e0253466bc99245685025bf91ecbd72b3ab2779f87d64e65576930e222f949\
      f7268c8d6ecc552c8fec69e22a5fc0b63c5c51ba9c0ed0be2e84312d568c368d\
      9a182218de7d308424f5e6854a8241482b85bd787c98e142fd1b748cdda01702\
      0968dca71f9e43cbdbc720001f517be6c03ceb49e927a9d4c61f76c111dd06a3\
      c05feaca22711a349143fca2059f0709f0e16c99ebac97a093aa91045024e642\
      e696e7b52d20fe3f0a31ce5b18ea6e04a5d30fd8026be795796bd336871444a3\
      0910d776fed786d09de127cd2c3511f06ab0939fb4930f0e7ff8cb0eaf9d7afe\
      687e5624b6b844ba62895d78d0d9173d643c1ab4800f0cf51c3d1f60437960f4\
      3c1ae61c11a5c3ec71a6d49ea506ba174f55102e7884f8ec6eef31968d940539\
      bb5a8172f01d2713e216db45f82d3f96d3262958badb23695477f5e45c713b4c",
);

/// `FixedWeight`'s accepted draw for (n, t) of `mceliece6688128` (512 bytes).
#[cfg(any(
    feature = "mceliece6688128",
    feature = "mceliece6688128f",
    feature = "mceliece6688128pc",
    feature = "mceliece6688128pcf"
))]
const E_6688128: [u8; 512] = hex(
    b"767c60df88cb6572dc48b111e30d2e632f2dd2ed9ada83403d4732ae3b67f6e5\
      f9f0888dd794861c5976d64fe6bd51ecbac67a9c110b651a4a4cf1e80dc9b582\
      6e8ad4b872317cf2e08b7293925a8799d8a90d44bedd4245d69caf0acbc95739\
      a256863a1ef9b8b869e06153061dccdc84b338c8bca78584c41ca45eb37cb087\
      5a3a9a9099b00db27fb9ac492017a28e4c47af3a1cfa776fd404712c0e94bffb\
      8d27fdc7d091c9fd026477a71ddfb32f93c3e34e0cdaefbfbc4c3e29ee116345\
      e407f210a36918cadd44cfce6f4f7f4d841af508ee73480f6c879db97a8ac7e4\
      90d8c19e118fcbcd98642da8043a9c4a1584c3a73c58c0282b6e7232b107a40f\
      f8c71b693e9e6e66d962387fc77e0021f1db01cb7dae0e585794aa15dc2a3f40\
      8689df677e961c905e4313b21b47cdbeb305652f13bede6d3ca2b9c75a6cddb6\
      5f5cc4155043f54f49fb175a4c71e2c52591753800a8ce9672ae4275caeb8693\
      9b1989512b177b7d3f3a0f7a95dd5507256413f70291e4c98b9d2076a4c40af0\
      53bd7e647e77377950506f4da2a1e6c83e8607f07cd6e752cd791564e898a629\
      19554b43ff645e31b20593743c733adbf3b9f10677ecbbac55f4cb87ee93d2e7\
      492162c7f474be497375144e195339ed5b4f3cbbfe5c47f11a6ea2605c6a1456\
      c62a58ead577216dc6dc5f67319a92655124447d3a63908d72f217bfeae3ae36",
);

/// `FixedWeight`'s accepted draw for (n, t) of `mceliece6960119` (476 bytes).
#[cfg(any(
    feature = "mceliece6960119",
    feature = "mceliece6960119f",
    feature = "mceliece6960119pc",
    feature = "mceliece6960119pcf"
))]
const E_6960119: [u8; 476] = hex(
    b"652cfdebf1f82468f0b902cb52c42a2f85fc31f5e2406f463d6b5bc4557fa12c\
      a813396dd64100be7a668d603bde58fad994109d927cecdea1603746431a0433\
      6a7e233a058e88c0eefe4f24b87edba057ac7965d40c9745a555e7cecbe7218e\
      15314f89a4d32a192b4790e80f6ee03c71ba7fcbe2fc318d676795eb479b90cc\
      2736ebdf4493237274a0886abed88d2b71e72ce79a9cecbcf3d55b5881669cc3\
      fb59b8fc574e38154d63391e8259aef8f03da223c14b412708d3e3747fe35e77\
      4b986b6596122028fec2ba28ee0ffc899553870896484e934ed4cacb8271f094\
      f3c5990a596e545ac7a38b5c5bf018e6cf206e9e89080d4d0102f3c82ea4c01b\
      aafb3a296d1b4fbaa5c566acf9ca7c876752461b331d792c306d01b02877574a\
      b814db5ddd4e1484ebfb31817684c70f437504d6970c7ece0dc604825e27be2b\
      c216b9bef8dca3e9c1b5d51e5d18621ea7e0654c7fcdd3a4742447ea6be4e127\
      a6da081949a3856d70ceb73cabb50985270fe0da2c7ade1d8cda341b131560aa\
      92b1acf92c711ff0983ecbe1284ca3131d1a1f50e984809e6904500c4ccfdb10\
      3551bc1c5feda6f771198a0e951648216d34339dc29efe46e2b14a7b404f304b\
      e3fb88b38919a7242cff07f8e797c34b7d60a338a9b54aa15975ce4f",
);

/// `FixedWeight`'s accepted draw for (n, t) of `mceliece8192128` (256 bytes).
#[cfg(any(
    feature = "mceliece8192128",
    feature = "mceliece8192128f",
    feature = "mceliece8192128pc",
    feature = "mceliece8192128pcf"
))]
const E_8192128: [u8; 256] = hex(
    b"8e0d0c0a7b60a3badc8a24a6e547e244c3d94178effd1e9b8d904432affd2d5d\
      919ccf0c8730eb442e017a9c00c861cc75ed183a3e9ccce203e5ab2b6bb23774\
      c0b954c1760a5f74bb66b316de7f2935cc125ec43c051680c7c0896c1602152c\
      68579d36decdfd13452bb3938e248936ff9b8f570ba08afe70fd819e051e1e51\
      c54597d054eee3a684b54c232ce5530e0f0531cce281e16451c8e463486a0d5d\
      f971f8e7936a3b40dd8cf3ccc36124ba7e250cfc45b5524dcb241bd336b51c02\
      085134764a64ae7f48e3150fddd2c66505c4392bca2f5c53c406c0df7ffeceb2\
      8a0e47c118859ac04adf9f918e8f02e20f4971bf256bdb3db1a7f7685f6e8acd",
);

/// The answers of every enabled set, by name.
pub(super) const ALL: &[(&str, KnownAnswers<'static>)] = &[
    #[cfg(feature = "mceliece348864")]
    (
        "mceliece348864",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_348864,
            key_generation: hex(
                b"cc75240def0b57da7985dc0296647d15fe2a0af9e1830da3961e7e406300ea2a",
            ),
            encapsulation: hex(b"5b5bee1ff3f1605cd12f210ce3a51a1957f8ee5868d1cb394680a4117415dd63"),
            decapsulation: hex(b"5224ed293f6ca0134220487c402c84275b5dd78d0b17bd62429e5c39726577b7"),
            implicit_rejection: hex(
                b"dbe67260bde5118aee5e50fb0f3dbca80b016b5f6dbbb05948c76d5c562658df",
            ),
        },
    ),
    #[cfg(feature = "mceliece348864f")]
    (
        "mceliece348864f",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_348864,
            key_generation: hex(
                b"d589da00e76617c1458e79731fe20afd6c1c395baca0c1ac302d576c18d38c7d",
            ),
            encapsulation: hex(b"58cf8e2b64aa9f81b39473f8059b16344b0c74e4f4ed952802e0fdcbcd0ee40f"),
            decapsulation: hex(b"92be731007224cff6c7355e129813f50b474a49974c24ab969d1eb00a6574080"),
            implicit_rejection: hex(
                b"fe97f26954f6eb24df1e96a8d65fce6931a26fe2a92719f0e4d739bba7c029ae",
            ),
        },
    ),
    #[cfg(feature = "mceliece348864pc")]
    (
        "mceliece348864pc",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_348864,
            key_generation: hex(
                b"cc75240def0b57da7985dc0296647d15fe2a0af9e1830da3961e7e406300ea2a",
            ),
            encapsulation: hex(b"fa42ea4b0130512a55fdef53451749487242301a539c144c06ce97a98036a15d"),
            decapsulation: hex(b"56070198260af5b1df1ee7b3c83afc2fbb719fd8fd683f41c3b315abe90e615a"),
            implicit_rejection: hex(
                b"4b263575b1f3cde64fb330e7fcccb4be48fe1de71bc7ce4166f0d752f673d2b6",
            ),
        },
    ),
    #[cfg(feature = "mceliece348864pcf")]
    (
        "mceliece348864pcf",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_348864,
            key_generation: hex(
                b"d589da00e76617c1458e79731fe20afd6c1c395baca0c1ac302d576c18d38c7d",
            ),
            encapsulation: hex(b"d4e8b4530626e3169872fce26b4f3e5b49cb449433234eb994198b8b4fd3c05d"),
            decapsulation: hex(b"22541b709dfe741ab1f153da27d6fb1e9c5847fd2f0fd6e611379bd35e29b8a4"),
            implicit_rejection: hex(
                b"6a267766ed2f75a1f299e658b2815481211db3f805487ae3b124f5b68ea9bd42",
            ),
        },
    ),
    #[cfg(feature = "mceliece460896")]
    (
        "mceliece460896",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_460896,
            key_generation: hex(
                b"3fe5038864746fe4a70880534db6b115013654fcd55756ba35a840fb32d19ed9",
            ),
            encapsulation: hex(b"c19a6960b561e9084e933b665b51f95b541ff95c193178df3db3a65809839353"),
            decapsulation: hex(b"de911fa41db3f99ef5e619ec3ef498aa8e69e57091b92fd7b9e75de77f690110"),
            implicit_rejection: hex(
                b"d162b19dc13e20777b3af195caeb00ff327116fd5ce9b81c9c6541f4625ae474",
            ),
        },
    ),
    #[cfg(feature = "mceliece460896f")]
    (
        "mceliece460896f",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_460896,
            key_generation: hex(
                b"e372392a5a2378271191623ea38ec156a74492817f65602248b33de48573805b",
            ),
            encapsulation: hex(b"84564f6a35442d2194b8ba054470fb1c2b132abaee0b7bc8cdc8d28422d75e62"),
            decapsulation: hex(b"1509897a3130d58c95c0701ae02a9f7a4d37e89318103ab1714faad412c9318d"),
            implicit_rejection: hex(
                b"8d53dd0c2d6e02be7fae1a408c8db3a4222dbfec39ef6644f992f3b20d1ac5a0",
            ),
        },
    ),
    #[cfg(feature = "mceliece460896pc")]
    (
        "mceliece460896pc",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_460896,
            key_generation: hex(
                b"3fe5038864746fe4a70880534db6b115013654fcd55756ba35a840fb32d19ed9",
            ),
            encapsulation: hex(b"58e7e620257bbfa7a4388b939ffc6bf5973cb24b93e71b05119711dc6af5a5ad"),
            decapsulation: hex(b"55511ad0d708629b657c508cdf0cfcba5d1bf41a3e97d1a04ef431a9926a6dca"),
            implicit_rejection: hex(
                b"d1d078c14b0bd13762c0d468c6ef16f2c9b6ea3edbb18f9f6f42d0397f30a6c1",
            ),
        },
    ),
    #[cfg(feature = "mceliece460896pcf")]
    (
        "mceliece460896pcf",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_460896,
            key_generation: hex(
                b"e372392a5a2378271191623ea38ec156a74492817f65602248b33de48573805b",
            ),
            encapsulation: hex(b"f619d1ab54f42bbca9eea4f552f8c336632c45ec4463ff3fb954349750ee2619"),
            decapsulation: hex(b"353b14b14b2e14bbce1b3f04ee5e903621870f1013ce8fdd153fabd88ee06f23"),
            implicit_rejection: hex(
                b"caea7d536aef3deeda3d6ede6fed0d2ac2c051ab8588d14aed2bfa2f4112d72e",
            ),
        },
    ),
    #[cfg(feature = "mceliece6688128")]
    (
        "mceliece6688128",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_6688128,
            key_generation: hex(
                b"5ea63642eddcb53c551c1505f5201e9b61c2174b984c3da17ae2dd98e6b3bea2",
            ),
            encapsulation: hex(b"b7499e9f0c223c57883b70c8f410f295357ab72a46aae67034a9d12739a607f6"),
            decapsulation: hex(b"125683f43717cfd00143f2b3452bc750aaf73ef94eb7443ad5a71e825a74e8a5"),
            implicit_rejection: hex(
                b"1013b0ebfbbea99d49a5f17a5231075b86b2b8433fabba826ee745a32d55d53a",
            ),
        },
    ),
    #[cfg(feature = "mceliece6688128f")]
    (
        "mceliece6688128f",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_6688128,
            key_generation: hex(
                b"e9a9688fc0cb7abcf52d8ea53bff9033a49b607a83729664714aec6109510a96",
            ),
            encapsulation: hex(b"8367a722e9cafd86684ceafcf2ab4d7d4edcce6005a220d369d263fccc9168e9"),
            decapsulation: hex(b"20ef32076adca97000ecc1efeaaa6946d8aaa0e6c5ce28663f66963abda6195c"),
            implicit_rejection: hex(
                b"77047994e9bc8d43f90a32003bac4d2d86a42356b2ec6ad1fb19d792e20f2b27",
            ),
        },
    ),
    #[cfg(feature = "mceliece6688128pc")]
    (
        "mceliece6688128pc",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_6688128,
            key_generation: hex(
                b"5ea63642eddcb53c551c1505f5201e9b61c2174b984c3da17ae2dd98e6b3bea2",
            ),
            encapsulation: hex(b"ce0c57bba373a6379c48b5fa24f4498442105cd5a5374620c4bda8628eba9e44"),
            decapsulation: hex(b"0ae688057a49332833f3816a39e147194465cb4521f11ee765803692e5a0d936"),
            implicit_rejection: hex(
                b"dbd1d0713fc41bae159a37aad30222edeb0464f03208d5c591ef6995d2c4d49c",
            ),
        },
    ),
    #[cfg(feature = "mceliece6688128pcf")]
    (
        "mceliece6688128pcf",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_6688128,
            key_generation: hex(
                b"e9a9688fc0cb7abcf52d8ea53bff9033a49b607a83729664714aec6109510a96",
            ),
            encapsulation: hex(b"f1460af712fe921ff06cdb5a9612b103c17e1d81a3e579685360379ed976703e"),
            decapsulation: hex(b"60527474cf84f5f9e6358a17076f7600e705c1fcdaf5ae41b7f00aeb2c472cd2"),
            implicit_rejection: hex(
                b"576e5aa955a108a69cf16cdd2b038428f80d324bb3467ec05698e98a2cebad1b",
            ),
        },
    ),
    #[cfg(feature = "mceliece6960119")]
    (
        "mceliece6960119",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_6960119,
            key_generation: hex(
                b"a917dbf9db2558d8a3fa3a5aa54821ce423c77cc6982f604058699c2bc3b2c65",
            ),
            encapsulation: hex(b"b181acc915183cbeca2934f46734436273b3a6255c3f6f2b960dc45a50adf886"),
            decapsulation: hex(b"32060280281629c3354f1910af40e7e0524c99f8bbadb41e6abff47b56454f3c"),
            implicit_rejection: hex(
                b"64681b582ecd1e579eb524b0d163f566f4ed0664b6b6b52f869c97a6a3df11e3",
            ),
        },
    ),
    #[cfg(feature = "mceliece6960119f")]
    (
        "mceliece6960119f",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_6960119,
            key_generation: hex(
                b"be2d3000cf4f29d490093c3272d3f9e0012add60c85da98a829a4d8fe1492b99",
            ),
            encapsulation: hex(b"e82c5ce7d57d5a6a8719147271f255e94d6adbf618ab8b0e06a825ea4ac8ce5a"),
            decapsulation: hex(b"e05a33f10a3f1db5fc50c1e187d854f705dd961d962a7fe470d74d03dbc64b8d"),
            implicit_rejection: hex(
                b"3b75c21f07d60ccbbcf41984536059e8882c9327abf96fee3d0f8b41f1074982",
            ),
        },
    ),
    #[cfg(feature = "mceliece6960119pc")]
    (
        "mceliece6960119pc",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_6960119,
            key_generation: hex(
                b"a917dbf9db2558d8a3fa3a5aa54821ce423c77cc6982f604058699c2bc3b2c65",
            ),
            encapsulation: hex(b"e8304244d0dc8dcab53e5c9119e6eff22ed344b2b6a12ee584b3a79cb4cbdb20"),
            decapsulation: hex(b"e76e46809e0c3f36e670d9fecdd748bd0c5cfc161ec29ea70dc256d425d3a691"),
            implicit_rejection: hex(
                b"cc8da9a76178b5ddc1ddf2a976700f9d24351e2d9b5e74040c89bfbc39864c3a",
            ),
        },
    ),
    #[cfg(feature = "mceliece6960119pcf")]
    (
        "mceliece6960119pcf",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_6960119,
            key_generation: hex(
                b"be2d3000cf4f29d490093c3272d3f9e0012add60c85da98a829a4d8fe1492b99",
            ),
            encapsulation: hex(b"7b1bc8fcd6ce103bba54730c43aec0a5d691cc7add9e06aceaeb29754bcaf8a5"),
            decapsulation: hex(b"a9e1bf38f45727962d869d02e7aa131d2fbd49944492ab751bd0deb9795428e5"),
            implicit_rejection: hex(
                b"8d49e14927381e28a7712ad88fc44dd33234ec777dbe10e7f9b606d0785873ae",
            ),
        },
    ),
    #[cfg(feature = "mceliece8192128")]
    (
        "mceliece8192128",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_8192128,
            key_generation: hex(
                b"678beacdefe95b9d45afdfe0131dc600252959bb2a8a47ed128db16c420a8476",
            ),
            encapsulation: hex(b"20a3d2d3dbd0e24e0649c783e289521c091b498726bb188e56502cd54066974c"),
            decapsulation: hex(b"aa932a3e5b5e1cf00c0a496394409cac8e6cc288bf36d3a9da86c973aba3a9f0"),
            implicit_rejection: hex(
                b"bfee95987921e0b26feca71e6bd9805ad1e5d99f3a8784fcfcdbe33ccecc2ed1",
            ),
        },
    ),
    #[cfg(feature = "mceliece8192128f")]
    (
        "mceliece8192128f",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_8192128,
            key_generation: hex(
                b"9df220066c45e3e043ee56d522224bb9287ad60a44b2872031bc4fbcd9253e13",
            ),
            encapsulation: hex(b"dee58ca2a792929ff1cf2fca0ffd0c96c2312540464ff44babcfc8aefc1078e0"),
            decapsulation: hex(b"e2be5d9d7190f1f4343e3e5f1f82d2ed15a16469e026acdcaa15e8a181c4176c"),
            implicit_rejection: hex(
                b"7d51df13bb83f344c342d398a77a7731b4d95025ae66bc39336dcbe6dd0342d7",
            ),
        },
    ),
    #[cfg(feature = "mceliece8192128pc")]
    (
        "mceliece8192128pc",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_8192128,
            key_generation: hex(
                b"678beacdefe95b9d45afdfe0131dc600252959bb2a8a47ed128db16c420a8476",
            ),
            encapsulation: hex(b"1113c8b216bb5e0b8eac5351d68fb9d70a66793ab343091f391ad4d4ec78a28e"),
            decapsulation: hex(b"80464b8a6763ec6dd2fb0a1d85bdbaac7d9a1f796c67e04d378d3e0a43c6a22d"),
            implicit_rejection: hex(
                b"aae9a3605bcdedfb4b2e1cb85aca3a9ee2e687ac323c749fbff85e8873c59532",
            ),
        },
    ),
    #[cfg(feature = "mceliece8192128pcf")]
    (
        "mceliece8192128pcf",
        KnownAnswers {
            seed: SEED,
            encapsulation_randomness: &E_8192128,
            key_generation: hex(
                b"9df220066c45e3e043ee56d522224bb9287ad60a44b2872031bc4fbcd9253e13",
            ),
            encapsulation: hex(b"b6218bcdad921bf487605484301f193b7c8df238297990e6c6d380f5b69e54bf"),
            decapsulation: hex(b"9769d6f389bd902da6eacbb53c377894696c74421b97f9ce6da69d1d671ea97a"),
            implicit_rejection: hex(
                b"d958fdc07b65fb537e32f39752281774d037a3bb573f717a0df250e7815249cd",
            ),
        },
    ),
];
